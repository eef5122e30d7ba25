import { describe, expect, it, vi } from 'vitest';
import { conversationDataOf } from '../../../src/storage/conversation-data.js';
import type { ConversationRecord, TranscriptLine } from '../../../src/storage/records.js';
import { REUSE_FROM_LINES, conversationText } from '../../../src/storage/state/conversation-text.js';
import type { WrittenRecord } from '../../../src/storage/state/conversation-text.js';

function line(n: number, overrides: Partial<TranscriptLine> = {}): TranscriptLine {
  return { at: n, from: n % 2 === 0 ? 'customer' : 'bot', text: n % 3 === 0 ? 'thanks' : `line ${n} "quoted" é`, ...overrides };
}

function record(transcript: TranscriptLine[], dialog: unknown = { turn: transcript.length }): ConversationRecord {
  return conversationDataOf({
    key: 'web:1',
    channel: 'web',
    serviceId: '1',
    owner: 'bot',
    dialog,
    transcript,
    updatedAt: transcript.length,
  })!;
}

/** A fixed sequence, so a failure repeats. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe("a conversation's text built from its parts", () => {
  it('is exactly JSON.stringify of the record, write after write, whatever the transcript did', () => {
    for (let seed = 1; seed <= 30; seed += 1) {
      const random = sequence(seed);
      let transcript: TranscriptLine[] = [];
      let previous: WrittenRecord | undefined;
      let next = 0;
      for (let write = 0; write < 60; write += 1) {
        const roll = random();
        if (roll < 0.4) transcript = [...transcript, line(next++), line(next++), line(next++)];
        else if (roll < 0.55) transcript = [...transcript.slice(2), line(next++)];
        else if (roll < 0.7 && transcript.length > 0) {
          const at = Math.floor(random() * transcript.length);
          transcript = transcript.map((l, i) => (i === at ? { ...l, mentionId: String(next), topicId: '2001' } : l));
        } else if (roll < 0.75) transcript = [];
        else if (roll < 0.8) transcript = [...transcript].reverse();
        else if (roll < 0.85 && transcript.length > 0) transcript = [...transcript, { ...transcript[0]! }];
        else if (roll < 0.9) transcript = transcript.map((l) => ({ ...l, text: `${l.text}!` }));
        const current = record(transcript, roll < 0.5 ? { turn: write, at: next } : undefined);
        const { json, lines } = conversationText(current, previous);
        expect(json).toBe(JSON.stringify(current));
        if (current.transcript.length >= REUSE_FROM_LINES) expect(lines).toEqual(current.transcript.map((l) => JSON.stringify(l)));
        else expect(lines).toBeUndefined();
        previous = lines && random() < 0.9 ? { record: current, lines } : undefined;
      }
    }
  });

  it('writes out only the lines of a long transcript that are new or changed', () => {
    const kept = Array.from({ length: REUSE_FROM_LINES }, (_, i) => line(i + 4));
    const before = record([line(1), line(2), line(3), ...kept]);
    const first = conversationText(before, undefined);
    const after = record([line(2), { ...line(3), mentionId: '9' }, ...kept, line(100), line(101)]);
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const { lines } = conversationText(after, { record: before, lines: first.lines! });
      const linesWritten = stringify.mock.calls.filter(([value]) => typeof value === 'object' && value !== null && 'from' in value);
      expect(linesWritten.map(([value]) => (value as TranscriptLine).at)).toEqual([3, 100, 101]);
      expect(lines).toEqual(after.transcript.map((l) => JSON.stringify(l)));
    } finally {
      stringify.mockRestore();
    }
  });
});
