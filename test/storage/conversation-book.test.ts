import { describe, expect, it } from 'vitest';
import { mayHoldLinesBefore } from '../../src/storage/state/conversations.js';
import { conversationSchema } from '../../src/storage/records.js';

function text(record: unknown): string {
  return JSON.stringify(conversationSchema.parse(record));
}

const base = { key: 'web:1', channel: 'web', serviceId: '1', owner: 'bot', updatedAt: 5000 };

describe('telling from a stored text whether a transcript may hold old lines', () => {
  it('reads the first line’s date of the transcript, not of a dialog that has one of its own', () => {
    const json = text({
      ...base,
      dialog: { transcript: [{ at: 1 }] },
      transcript: [
        { at: 3000, from: 'customer', text: 'hi' },
        { at: 4000, from: 'bot', text: 'hello' },
      ],
    });
    expect(mayHoldLinesBefore(json, 3000)).toBe(false);
    expect(mayHoldLinesBefore(json, 3001)).toBe(true);
  });

  it('says no for an empty transcript and yes for a text it cannot read that way', () => {
    expect(mayHoldLinesBefore(text({ ...base, transcript: [] }), 10_000)).toBe(false);
    expect(mayHoldLinesBefore('{"transcript":[{"from":"bot","at":1}]}', 10_000)).toBe(true);
    expect(mayHoldLinesBefore('{}', 10_000)).toBe(true);
  });
});
