import { shardedTables } from './hot-state.js';
import type { HotState } from './hot-state.js';
import type { Persistence, PersistenceCounters } from './persistence.js';
import type { AuditEntry, ConversationRecord } from './records.js';

/** Keeps the cold data in memory; a "write" only takes the changed keys, as the SQL stores do. */
export class MemoryPersistence implements Persistence {
  private audit: AuditEntry[] = [];
  /** Copies in append order, like the file archive: a re-archived conversation has several. */
  private archive: Array<{ key: string; json: string }> = [];

  writeHot(state: HotState, audit: readonly AuditEntry[] = []): Promise<number> {
    this.audit.push(...audit);
    for (const [, table] of shardedTables(state)) table.takeChanged();
    return Promise.resolve(0);
  }

  snapshot(): Promise<void> {
    return Promise.resolve();
  }

  stats(): PersistenceCounters {
    return { fsyncs: 0, bytes: 0, snapshots: 0 };
  }

  appendAudit(entries: AuditEntry[]): Promise<void> {
    this.audit.push(...entries);
    return Promise.resolve();
  }

  readAudit(visit: (entry: AuditEntry) => void): Promise<void> {
    for (const entry of this.audit) visit(entry);
    return Promise.resolve();
  }

  rewriteAudit(keep: (entry: AuditEntry) => boolean): Promise<number> {
    const before = this.audit.length;
    this.audit = this.audit.filter(keep);
    return Promise.resolve(before - this.audit.length);
  }

  readCold(key: string): Promise<string | undefined> {
    // The memory store keeps every conversation in memory: it never makes one cold.
    return Promise.reject(new Error(`conversation ${key} cannot be cold in the memory store`));
  }

  appendArchive(records: Array<{ key: string; json: string }>): Promise<void> {
    this.archive.push(...records);
    return Promise.resolve();
  }

  readArchive(key: string): Promise<ConversationRecord | undefined> {
    const copy = this.archive.findLast((entry) => entry.key === key);
    return Promise.resolve(copy === undefined ? undefined : (JSON.parse(copy.json) as ConversationRecord));
  }

  removeArchive(keys: readonly string[], options: { dryRun: boolean }): Promise<number> {
    const gone = new Set(keys);
    const kept = this.archive.filter((entry) => !gone.has(entry.key));
    const removed = this.archive.length - kept.length;
    if (!options.dryRun) this.archive = kept;
    return Promise.resolve(removed);
  }

  compactArchive(isArchived: (key: string) => boolean): Promise<number> {
    const latest = new Map(this.archive.map((entry, index) => [entry.key, index]));
    const before = this.archive.length;
    this.archive = this.archive.filter((entry, index) => latest.get(entry.key) === index && isArchived(entry.key));
    return Promise.resolve(before - this.archive.length);
  }

  release(): Promise<void> {
    return Promise.resolve();
  }
}
