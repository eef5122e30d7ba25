import type { ConversationRecord, TranscriptLine } from '../records.js';

/** A record with its transcript lines' JSON texts, in order: what the next write of that conversation can reuse. */
export interface WrittenRecord {
  record: ConversationRecord;
  lines: readonly string[];
}

/**
 * Below this many lines a record is written out whole: field by field costs more than the lines it saves (measured in
 * the webhook bench, where transcripts are short, and in a micro-benchmark: even at about 12 lines).
 */
export const REUSE_FROM_LINES = 20;

/**
 * The record's JSON text, exactly `JSON.stringify(record)`. A long one is built from its parts: most of its text is
 * then its transcript, and a write mostly keeps the lines the previous one had (adds two, drops the oldest, marks one
 * with its mention id), so each line kept is not written out again. `record` must be JSON data with only the
 * schema's keys (what `conversationDataOf` gives), as must `previous`. `lines`: the lines' texts, for a long one.
 */
export function conversationText(record: ConversationRecord, previous: WrittenRecord | undefined): { json: string; lines?: string[] } {
  if (record.transcript.length < REUSE_FROM_LINES) return { json: JSON.stringify(record) };
  const lines = lineTexts(record.transcript, previous);
  let json = '{';
  let first = true;
  for (const key of Object.keys(record) as Array<keyof ConversationRecord>) {
    const value = key === 'transcript' ? `[${lines.join(',')}]` : JSON.stringify(record[key]);
    json += `${first ? '' : ','}${JSON.stringify(key)}:${value}`;
    first = false;
  }
  return { json: `${json}}`, lines };
}

function lineTexts(transcript: readonly TranscriptLine[], previous: WrittenRecord | undefined): string[] {
  const out: string[] = new Array(transcript.length);
  const before = previous?.record.transcript ?? [];
  // Where the kept lines start in the previous transcript: the oldest ones may have been dropped.
  let shift = transcript.length === 0 ? -1 : before.findIndex((line) => sameLine(line, transcript[0]!));
  for (let i = 0; i < transcript.length; i += 1) {
    const line = transcript[i]!;
    const j = shift + i;
    if (shift >= 0 && j < before.length && sameLine(before[j]!, line)) {
      out[i] = previous!.lines[j]!;
    } else {
      out[i] = JSON.stringify(line);
      // Lines added at the end, or changed: the ones after them may still line up.
      if (shift >= 0 && j >= before.length) shift = -1;
    }
  }
  return out;
}

/** Lines with the schema's keys only (JSON data, in the schema's order) have the same text when these are equal. */
function sameLine(a: TranscriptLine, b: TranscriptLine): boolean {
  return a.at === b.at && a.from === b.from && a.text === b.text && a.mentionId === b.mentionId && a.topicId === b.topicId;
}
