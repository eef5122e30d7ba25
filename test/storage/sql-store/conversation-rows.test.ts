import { describe, expect, it } from 'vitest';
import { joinConversation, writeTranscript } from '../../../src/storage/sql-store/conversation-rows.js';
import { sqliteDriver } from '../../../src/storage/sql-store/sql-driver.js';
import { SqlSession } from '../../../src/storage/sql-store/sql-session.js';
import { openDatabase } from '../../../src/storage/sqlite/open-sqlite-store.js';
import { conversation } from '../store-contract.js';

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const line = (text: string) => ({ at: 1, from: 'bot' as const, text });

/**
 * Writes `texts` over the committed lines `before` (numbered from 10) of one conversation in an in-memory SQLite
 * database: the statements it ran (their first word and the numbers they name) and the lines left, as `seq text`.
 */
async function rewrite(before: string[], texts: string[]) {
  const db = await openDatabase(':memory:');
  const session = new SqlSession(
    sqliteDriver(db, async () => {}, false),
    0,
    silent,
  );
  const committed = before.map((text, i) => ({ seq: 10 + i, body: JSON.stringify(line(text)) }));
  for (const row of committed)
    db.prepare("INSERT INTO bridge_transcript (key, seq, at, body) VALUES ('k', ?, 1, ?)").run(row.seq, row.body);
  const ran: string[] = [];
  const write = session.write.bind(session);
  session.write = (sql, values = []) => {
    ran.push(`${sql.split(' ')[0]} ${values.filter((v) => typeof v === 'number' && v > 1).join(',')}`);
    return write(sql, values);
  };
  const returned = await session.run(() => writeTranscript(session, 'k', committed, texts.map(line)));
  const show = (rows: Array<{ seq: number; body: string }>) => rows.map((row) => `${row.seq} ${JSON.parse(row.body).text}`);
  const stored = db.prepare("SELECT seq, body FROM bridge_transcript WHERE key = 'k' ORDER BY seq").all() as Array<{
    seq: number;
    body: string;
  }>;
  expect(show(returned)).toEqual(show(stored));
  await session.flush();
  db.close();
  return { ran, lines: show(stored) };
}

describe('transcript lines as rows', () => {
  it('joins the row of a conversation (without its transcript) and its lines back into the record', () => {
    const { transcript, ...rest } = conversation('svc-1', { dialog: { transcript: [] } });
    const rows = transcript.map((l, seq) => ({ seq, body: JSON.stringify(l) }));
    expect(JSON.parse(joinConversation({ body: JSON.stringify(rest), dialog: null, rows }))).toEqual({ ...rest, transcript });
  });

  it('inserts only the lines appended after the committed ones', async () => {
    expect(await rewrite(['a', 'b'], ['a', 'b', 'c', 'd'])).toEqual({
      ran: ['INSERT 12', 'INSERT 13'],
      lines: ['10 a', '11 b', '12 c', '13 d'],
    });
  });

  it('deletes the lines trimmed from the front and a changed last line, in one statement', async () => {
    expect(await rewrite(['a', 'b', 'c'], ['b', 'C', 'd'])).toEqual({
      ran: ['DELETE 11,11', 'INSERT 13', 'INSERT 14'],
      lines: ['11 b', '13 C', '14 d'],
    });
  });

  it('replaces every line when none is kept, and deletes them all for an empty transcript', async () => {
    expect(await rewrite(['a'], ['x'])).toEqual({ ran: ['DELETE 11', 'INSERT 11'], lines: ['11 x'] });
    expect(await rewrite(['a', 'b'], [])).toEqual({ ran: ['DELETE 12'], lines: [] });
    expect(await rewrite([], [])).toEqual({ ran: [], lines: [] });
  });
});
