import { describe, expect, it } from 'vitest';
import { joinConversation, transcriptStatements } from '../../../src/storage/sql-store/conversation-rows.js';
import { conversation } from '../store-contract.js';

const line = (text: string) => ({ at: 1, json: JSON.stringify({ at: 1, from: 'bot', text }) });
const rows = (...texts: string[]) => texts.map((text, seq) => ({ seq: seq + 10, body: line(text).json }));
const kinds = (statements: Array<{ sql: string; values: unknown[] }>) =>
  statements.map((s) => `${s.sql.split(' ')[0]} ${s.values.slice(1, 2)}`);

describe('transcript lines as rows', () => {
  it('joins the row of a conversation (without its transcript) and its lines back into the record', () => {
    const { transcript, ...rest } = conversation('svc-1', { dialog: { transcript: [] } });
    const joined = joinConversation(
      JSON.stringify(rest),
      transcript.map((l) => JSON.stringify(l)),
    );
    expect(JSON.parse(joined)).toEqual({ ...rest, transcript });
  });

  it('inserts only the lines appended after the committed ones', () => {
    expect(kinds(transcriptStatements('k', rows('a', 'b'), [line('a'), line('b'), line('c'), line('d')]))).toEqual([
      'INSERT 12',
      'INSERT 13',
    ]);
  });

  it('deletes the lines trimmed from the front and rewrites a changed last line', () => {
    expect(kinds(transcriptStatements('k', rows('a', 'b', 'c'), [line('b'), line('C'), line('d')]))).toEqual([
      'DELETE 11',
      'DELETE 12',
      'INSERT 13',
      'INSERT 14',
    ]);
  });

  it('replaces every line when none is kept, and deletes them all for an empty transcript', () => {
    expect(kinds(transcriptStatements('k', rows('a'), [line('x')]))).toEqual(['DELETE 11', 'INSERT 11']);
    expect(kinds(transcriptStatements('k', rows('a'), []))).toEqual(['DELETE ']);
    expect(transcriptStatements('k', [], [])).toEqual([]);
  });
});
