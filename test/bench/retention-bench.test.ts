import { describe, expect, it } from 'vitest';
import { measureRetention } from '../../bench/retention-bench.js';

// The retention bench at a tiny size: counts only, never timings.
describe('the retention bench (smoke)', () => {
  it('forgets one contact and, once everything is old, trims every transcript and every survey answer', async () => {
    const row = await measureRetention('sqlite', 30, 4);
    expect(row.forgotten).toMatchObject({ known: true, conversations: 1, transcriptLines: 4 });
    expect(row.retentionAllOld).toEqual({
      transcriptLines: 29 * 4,
      trimmedConversations: 29,
      archivedConversations: 0,
      archiveCopies: 0,
      surveyAnswers: 3,
    });
  });
});
