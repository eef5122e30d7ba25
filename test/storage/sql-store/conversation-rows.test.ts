import { describe, expect, it } from 'vitest';
import { joinConversation, writeTranscript } from '../../../src/storage/sql-store/conversation-rows.js';
import type { SqlValue } from '../../../src/storage/sql-store/sql-driver.js';
import { conversation } from '../store-contract.js';

const line = (text: string) => ({ at: 1, from: 'bot' as const, text });
const rows = (...texts: string[]) => texts.map((text, seq) => ({ seq: seq + 10, body: JSON.stringify(line(text)) }));

/** The statements `writeTranscript` runs (their first word and the numbers they name), and the rows it leaves. */
async function statements(committed: ReturnType<typeof rows>, texts: string[]) {
  const ran: string[] = [];
  const write = async (sql: string, values: readonly SqlValue[] = []) => {
    ran.push(`${sql.split(' ')[0]} ${values.filter((v) => typeof v === 'number' && v > 1).join(',')}`);
    return 0;
  };
  const after = await writeTranscript({ write }, 'k', committed, texts.map(line));
  return { ran, after: after.map((row) => `${row.seq} ${JSON.parse(row.body).text}`) };
}

describe('transcript lines as rows', () => {
  it('joins the row of a conversation (without its transcript) and its lines back into the record', () => {
    const { transcript, ...rest } = conversation('svc-1', { dialog: { transcript: [] } });
    const joined = joinConversation({
      body: JSON.stringify(rest),
      dialog: null,
      rows: transcript.map((l, seq) => ({ seq, body: JSON.stringify(l) })),
    });
    expect(JSON.parse(joined)).toEqual({ ...rest, transcript });
  });

  it('inserts only the lines appended after the committed ones', async () => {
    expect(await statements(rows('a', 'b'), ['a', 'b', 'c', 'd'])).toEqual({
      ran: ['INSERT 12', 'INSERT 13'],
      after: ['10 a', '11 b', '12 c', '13 d'],
    });
  });

  it('deletes the lines trimmed from the front and a changed last line, in one statement', async () => {
    expect(await statements(rows('a', 'b', 'c'), ['b', 'C', 'd'])).toEqual({
      ran: ['DELETE 11,11', 'INSERT 13', 'INSERT 14'],
      after: ['11 b', '13 C', '14 d'],
    });
  });

  it('replaces every line when none is kept, and deletes them all for an empty transcript', async () => {
    expect(await statements(rows('a'), ['x'])).toEqual({ ran: ['DELETE 11', 'INSERT 11'], after: ['11 x'] });
    expect(await statements(rows('a'), [])).toEqual({ ran: ['DELETE 11'], after: [] });
    expect(await statements([], [])).toEqual({ ran: [], after: [] });
  });
});
