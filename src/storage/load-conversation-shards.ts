import { join } from 'node:path';
import { TextFile } from 'lowdb/node';
import { z } from 'zod';
import { shardOf } from './conversation-table.js';
import type { ConversationTable } from './conversation-table.js';
import { conversationSchema } from './records.js';
import { StoreError, describeCause } from './store-error.js';

export function shardFileName(index: number): string {
  return `${index.toString(16).padStart(2, '0')}.jsonl`;
}

/**
 * Reads every shard file into the table, validating each record: a line that does not parse or
 * fails the schema refuses the start, naming the file, the line and the path of the problem.
 */
export async function loadConversationShards(dir: string, table: ConversationTable): Promise<void> {
  const misplaced = new Set<number>();
  for (let index = 0; index < table.shardCount; index += 1) {
    const path = join(dir, shardFileName(index));
    let text: string | null;
    try {
      text = await new TextFile(path).read();
    } catch (error) {
      throw new StoreError('io', `Cannot read ${path}: ${describeCause(error)}.`, { cause: error });
    }
    if (text === null) continue;
    const lines = text.split('\n');
    lines.forEach((line, lineIndex) => {
      if (line.length === 0) return;
      const record = decodeLine(line, path, lineIndex + 1);
      const home = shardOf(record.key, table.shardCount);
      // A record in the wrong file (or twice) is kept once and both files are rewritten.
      if (home !== index || table.has(record.key)) misplaced.add(home).add(index);
      table.set(record.key, { json: line, owner: record.owner, updatedAt: record.updatedAt });
    });
  }
  table.takeDirty();
  table.markDirty(misplaced);
}

const LEAVE_IT = 'The file was left unchanged: fix it, restore a backup, or move the data directory away.';

function decodeLine(line: string, path: string, lineNumber: number): z.infer<typeof conversationSchema> {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch (error) {
    throw new StoreError('corrupt', `The conversation file ${path} line ${lineNumber} is not valid JSON (${describeCause(error)}). ${LEAVE_IT}`);
  }
  const result = conversationSchema.safeParse(data);
  if (!result.success) {
    throw new StoreError('schema', `The conversation file ${path} line ${lineNumber} is not a valid conversation:\n${z.prettifyError(result.error)}\n${LEAVE_IT}`);
  }
  return result.data;
}
