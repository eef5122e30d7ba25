import { describe, expect, it } from 'vitest';
import type { ConversationRecord } from '../../../src/storage/records.js';
import { entryOf } from '../../../src/storage/state/conversations.js';
import { ParsedConversations } from '../../../src/storage/state/parsed-conversations.js';

function record(n: number, text = 'hello'): ConversationRecord {
  return {
    key: `web:${n}`,
    channel: 'web',
    serviceId: String(n),
    owner: 'bot',
    transcript: [{ at: n, from: 'customer', text }],
    updatedAt: n,
  };
}

describe('the parsed conversations kept beside their text', () => {
  it('give a copy of what the slot says, never the kept one', () => {
    const memo = new ParsedConversations({ records: 10, chars: 1_000_000 });
    const slot = entryOf(record(1));
    memo.remember('web:1', slot, JSON.parse(slot.json));
    const first = memo.read('web:1', slot, true);
    first.transcript[0]!.text = 'changed';
    expect(memo.read('web:1', slot, true)).toStrictEqual(record(1));
  });

  it('hold only for the slot they were made from: a newer slot is read from its text', () => {
    const memo = new ParsedConversations({ records: 10, chars: 1_000_000 });
    const old = entryOf(record(1));
    memo.remember('web:1', old, JSON.parse(old.json));
    const newer = entryOf(record(1, 'newer'));
    expect(memo.read('web:1', newer, true).transcript[0]!.text).toBe('newer');
    expect(memo.read('web:1', newer, true).transcript[0]!.text).toBe('newer');
  });

  it('keep at most their bound, dropping the oldest, and keep nothing a scan read', () => {
    const memo = new ParsedConversations({ records: 3, chars: 1_000_000 });
    const slots = [1, 2, 3, 4, 5].map((n) => entryOf(record(n)));
    for (const [i, slot] of slots.entries()) memo.read(`web:${i + 1}`, slot, true);
    expect(memo.size.records).toBe(3);
    const scanned = entryOf(record(6));
    expect(memo.read('web:6', scanned, false)).toStrictEqual(record(6));
    expect(memo.size.records).toBe(3);
    // Still right for the ones dropped: they are parsed from their text again.
    expect(memo.read('web:1', slots[0]!, true)).toStrictEqual(record(1));
  });

  it('keep within their text budget, and a record written again counts once', () => {
    const one = entryOf(record(1, 'x'.repeat(1000)));
    const memo = new ParsedConversations({ records: 100, chars: one.json.length * 2 + 10 });
    memo.read('web:1', one, true);
    memo.read('web:1', entryOf(record(1, 'y'.repeat(1000))), true);
    expect(memo.size.records).toBe(1);
    memo.read('web:2', entryOf(record(2, 'x'.repeat(1000))), true);
    memo.read('web:3', entryOf(record(3, 'x'.repeat(1000))), true);
    expect(memo.size.records).toBe(2);
    expect(memo.size.chars).toBeLessThanOrEqual(one.json.length * 2 + 10);
  });
});
