import type { HotState } from './hot-state.js';
import type { AuditEntry, ConversationRecord } from './records.js';
import type { ColdSlot } from './state/conversations.js';

/**
 * Where a store keeps its state: SQLite or PostgreSQL rows, or memory. The store logic above it is shared, so one
 * contract suite covers them all.
 */
export interface PersistenceCounters {
  /** Committed write transactions (each one sync of the WAL, or one PostgreSQL commit). */
  fsyncs: number;
  /** Bytes of the rows written since open. */
  bytes: number;
  snapshots: number;
}

export interface Persistence {
  /**
   * Makes the changes since the last call and the audit entries given durable (one transaction, committed); returns
   * the bytes written.
   */
  writeHot(state: HotState, audit?: readonly AuditEntry[]): Promise<number>;
  /** Writes whatever is still to write (at close and after a migration); the SQL stores commit what is dirty. */
  snapshot(state: HotState): Promise<void>;
  stats(): PersistenceCounters;
  appendAudit(entries: AuditEntry[]): Promise<void>;
  /**
   * Deletes transcript lines dated before `beforeMs`, in memory and in the rows, once what changed is committed;
   * returns the lines deleted and from how many conversations. Without it (memory), the lines in memory are all.
   */
  deleteTranscriptBefore?(state: HotState, beforeMs: number): Promise<{ lines: number; conversations: number }>;
  /** Every audit entry kept, oldest first. */
  readAudit(visit: (entry: AuditEntry) => void): Promise<void>;
  /** Keeps only the entries `keep` accepts; returns how many were dropped. */
  rewriteAudit(keep: (entry: AuditEntry) => boolean): Promise<number>;
  /** The JSON of a cold conversation, read from its rows; undefined when it is no longer there (read the map again). */
  readCold(key: string, slot: ColdSlot): Promise<string | undefined>;
  /** Appends conversations (as JSON text) to the archive. */
  appendArchive(records: Array<{ key: string; json: string }>): Promise<void>;
  /** The latest archived copy of a conversation. */
  readArchive(key: string): Promise<ConversationRecord | undefined>;
  /**
   * Deletes every archived copy of these conversations (a forgotten contact, an archive past its retention);
   * returns how many copies there were. With `dryRun`, only counts them.
   */
  removeArchive(keys: readonly string[], options: { dryRun: boolean }): Promise<number>;
  /** Drops archive copies that are superseded or no longer archived; returns how many. */
  compactArchive(isArchived: (key: string) => boolean): Promise<number>;
  /** Releases the data directory (the lock); nothing is written afterwards. */
  release(): Promise<void>;
}
