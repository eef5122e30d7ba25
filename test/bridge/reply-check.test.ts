import { describe, expect, it } from 'vitest';
import { findPublishedReply } from '../../src/bridge/reply-check.js';

describe('the search for a reply that may already be out', () => {
  it('starts just before the customer mention was added (the list keeps the same clock), so it reads few pages', async () => {
    const added = Date.UTC(2026, 10, 23, 12, 0, 30);
    const asked: Date[] = [];
    const engage = {
      publisherMentions: {
        listPages: async function* (q: { dateFrom: Date }) {
          asked.push(q.dateFrom);
          yield { data: [] as Array<Record<string, unknown> & { id: string }> };
        },
        get: async () => {
          throw new Error('not expected');
        },
      },
    };
    const check = await findPublishedReply(
      engage as never,
      { mentionId: '9001', topicId: '2001', text: 'Hi', serviceFromMs: added },
      () => added,
    );
    expect(check.outcome).toBe('absent');
    // A reply cannot be older than the mention it answers; dates are whole seconds, so one second of slack covers ties.
    expect(asked.map((d) => added - d.getTime())).toEqual([1_000]);
  });
});
