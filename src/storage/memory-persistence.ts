import type { ArchiveRef, HotState } from './hot-state.js';
import type { Persistence } from './persistence.js';
import type { AuditEntry, ConversationRecord } from './records.js';
import { StoreError } from './store-error.js';

/** Keeps the cold data in arrays; an archive reference's offset is the index of its record. */
export class MemoryPersistence implements Persistence {
  private audit: AuditEntry[] = [];
  private archive: string[] = [];

  writeHot(_state: HotState): Promise<number> {
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

  appendArchive(records: ConversationRecord[], at: number): Promise<ArchiveRef[]> {
    return Promise.resolve(
      records.map((record) => {
        const text = JSON.stringify(record);
        this.archive.push(text);
        return { at, offset: this.archive.length - 1, length: text.length };
      }),
    );
  }

  readArchive(ref: ArchiveRef): Promise<ConversationRecord> {
    const text = this.archive[ref.offset];
    if (text === undefined) {
      return Promise.reject(new StoreError('corrupt', `The in-memory archive has no record at ${ref.offset}.`));
    }
    return Promise.resolve(JSON.parse(text) as ConversationRecord);
  }

  release(): Promise<void> {
    return Promise.resolve();
  }
}
