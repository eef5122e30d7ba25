import { z } from 'zod';
import { CURRENT_SCHEMA_VERSION } from './hot-state.js';
import { conversationSchema } from './records.js';

export interface MigrationContext {
  now: number;
}

/** `migrations[n]` turns a version-n file into version n+1. Each one parses what it reads, so a bad file names its path. */
export type Migration = (data: unknown, context: MigrationContext) => unknown;

/**
 * Version 0: the prototype's file, without `schemaVersion`: conversations as an array, seen mention ids
 * as a bare list (no time), cursors as raw values. Version 1 keys everything and dates seen ids, so they
 * can be pruned by age (migrated ids count as seen at migration time), and keeps conversations in shard files.
 */
const v0Schema = z.object({
  conversations: z.array(conversationSchema).default([]),
  seenIds: z.array(z.string()).default([]),
  cursors: z.record(z.string(), z.unknown()).default({}),
});

const fromV0: Migration = (data, { now }) => {
  const v0 = v0Schema.parse(data);
  // The sharded collections stay inline here: loading moves them into their shard files.
  return {
    schemaVersion: 1,
    meta: { createdAt: now, values: {}, nextEscalationSeq: 1, nextEffectSeq: 1 },
    inbox: [],
    cursors: Object.fromEntries(Object.entries(v0.cursors).map(([topic, value]) => [topic, { value, updatedAt: now }])),
    escalations: {},
    conversations: v0.conversations,
    seen: Object.fromEntries(v0.seenIds.map((id) => [id, now])),
  };
};

/**
 * Version 1 keyed seen ids and inbox changes by the mention id alone; version 2 keys them by topic and id. The
 * seen ids live in shard files and journal records the core file does not hold, so this step only raises the
 * version; `keySeenByTopic` (below) re-keys the loaded state once everything is read.
 */
const fromV1: Migration = (data) => {
  const v1 = z.looseObject({ schemaVersion: z.literal(1) }).parse(data);
  return { ...v1, schemaVersion: 2 };
};

export const MIGRATIONS: readonly Migration[] = [fromV0, fromV1];

/** The version a parsed file declares: a missing field means the unversioned prototype (0). */
export function schemaVersionOf(data: unknown): number | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const version = (data as { schemaVersion?: unknown }).schemaVersion;
  if (version === undefined) return 0;
  return typeof version === 'number' && Number.isInteger(version) && version >= 0 ? version : undefined;
}

export function migrate(data: unknown, from: number, context: MigrationContext): unknown {
  let current = data;
  for (let version = from; version < CURRENT_SCHEMA_VERSION; version += 1) {
    const step = MIGRATIONS[version];
    if (!step) throw new Error(`no migration from schema version ${version}`);
    current = step(current, context);
  }
  return current;
}
