import { z } from 'zod';
import { CURRENT_SCHEMA_VERSION, coreFileSchema, hotStateFromCore } from './hot-state.js';
import type { HotState } from './hot-state.js';
import { migrate, schemaVersionOf } from './migrations.js';
import { conversationSchema, effectSchema } from './records.js';
import type { ConversationRecord, Effect } from './records.js';
import { StoreError, describeJsonFailure } from './store-error.js';

const LEAVE_IT = 'The file was left unchanged: fix it, restore a backup, or move it away to start with an empty store.';

/** A migrated older file may carry sharded collections inline: they move to the shard files on the first write. */
const loadableSchema = coreFileSchema.extend({
  conversations: z.array(conversationSchema).default([]),
  seen: z.record(z.string(), z.number()).default({}),
  outbox: z.record(z.string(), effectSchema).default({}),
});

export interface InlineCollections {
  conversations: ConversationRecord[];
  seen: Record<string, number>;
  outbox: Record<string, Effect>;
}

export interface DecodedCoreFile {
  state: HotState;
  fromVersion: number;
  inline: InlineCollections;
  /** The last journal record the snapshot holds (0: none, or an older layout). */
  journalSeq: number;
}

/** Parses, migrates and validates the core file's text; every refusal names the file and the problem. */
export function decodeCoreFile(text: string, path: string, now: number): DecodedCoreFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new StoreError('corrupt', `The store file ${path} is not valid JSON (${describeJsonFailure(error)}). ${LEAVE_IT}`);
  }
  const fromVersion = schemaVersionOf(data);
  if (fromVersion === undefined) {
    throw new StoreError('schema', `The store file ${path} is not a store (no valid schemaVersion at the top level). ${LEAVE_IT}`);
  }
  if (fromVersion > CURRENT_SCHEMA_VERSION) {
    throw new StoreError(
      'schema',
      `The store file ${path} was written by a newer engage-bridge (schemaVersion ${fromVersion}; this one reads up to ${CURRENT_SCHEMA_VERSION}). Upgrade engage-bridge or restore a backup. The file was left unchanged.`,
    );
  }
  let migrated: unknown = data;
  if (fromVersion < CURRENT_SCHEMA_VERSION) {
    try {
      migrated = migrate(data, fromVersion, { now });
    } catch (error) {
      const problem = error instanceof z.ZodError ? z.prettifyError(error) : String(error);
      throw new StoreError('schema', `The store file ${path} (schemaVersion ${fromVersion}) cannot be migrated:\n${problem}\n${LEAVE_IT}`);
    }
  }
  const result = loadableSchema.safeParse(migrated);
  if (!result.success) {
    throw new StoreError(
      'schema',
      `The store file ${path} does not match schemaVersion ${CURRENT_SCHEMA_VERSION}:\n${z.prettifyError(result.error)}\n${LEAVE_IT}`,
    );
  }
  const { conversations, seen, outbox, journalSeq, ...core } = result.data;
  return { state: hotStateFromCore(core), fromVersion, inline: { conversations, seen, outbox }, journalSeq: journalSeq ?? 0 };
}
