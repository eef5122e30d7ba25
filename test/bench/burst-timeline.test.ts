import { describe, expect, it } from 'vitest';
import { burstTimeline } from '../../bench/lib/burst-timeline.js';
import type { RequestEntry } from '../../bench/lib/sim-client.js';

function entry(seq: number, method: string, path: string, atMs: number, durationMs: number): RequestEntry {
  return { seq, method, path, params: {}, status: 200, duration_ms: durationMs, date: 0, at_ms: atMs };
}

describe('the burst timeline', () => {
  it('gives, per endpoint, when its first call came in and its last answer went out, from the phase start', () => {
    const t = burstTimeline(
      1_000,
      [
        { mentionId: 'm1', contact: 'c', text: 'hello', sentAt: 1_050 },
        { mentionId: 'm2', contact: 'c', text: 'thanks', sentAt: 1_090 },
      ],
      2_400,
      [
        entry(1, 'GET', '/1001/inbox/mentions', 1_700, 100),
        entry(2, 'POST', '/1001/publisher/add', 2_000, 100),
        entry(3, 'POST', '/_sim/mention', 2_050, 1),
        entry(4, 'POST', '/1001/publisher/add', 2_390, 100),
        entry(5, 'GET', '/1001/inbox/mentions', 2_500, 100),
      ],
    );
    expect(t).toEqual({
      last_sent_ms: 90,
      last_reply_ms: 1_400,
      calls: {
        'GET inbox/mentions': { count: 2, first_start_ms: 600, last_end_ms: 1_500 },
        'POST publisher/add': { count: 2, first_start_ms: 900, last_end_ms: 1_390 },
      },
    });
  });

  it('has no last reply when nothing was answered', () => {
    expect(burstTimeline(0, [], undefined, []).last_reply_ms).toBeNull();
  });
});
