import { shardedTables } from './hot-state.js';
import type { HotState } from './hot-state.js';
import type { Persistence } from './persistence.js';
import type { AuditEntry, ConversationRecord } from './records.js';

/** Keeps the cold data in memory; a "write" only hands over the changed shards, as the file store does. */
export class MemoryPersistence implements Persistence {
  private audit: AuditEntry[] = [];
  private readonly archive = new Map<string, string>();

  writeHot(state: HotState): Promise<number> {
    for (const [, table] of shardedTables(state)) table.takeDirty();
    return Promise.resolve(0);
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

  appendArchive(records: Array<{ key: string; json: string }>): Promise<void> {
    for (const { key, json } of records) this.archive.set(key, json);
    return Promise.resolve();
  }

  readArchive(key: string): Promise<ConversationRecord | undefined> {
    const json = this.archive.get(key);
    return Promise.resolve(json === undefined ? undefined : (JSON.parse(json) as ConversationRecord));
  }

  release(): Promise<void> {
    return Promise.resolve();
  }
}
