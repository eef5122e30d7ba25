import { join } from 'node:path';
import { JsonLinesFile } from './jsonl-file.js';
import { shardFileName, shardOf } from './sharded-map.js';
import { conversationSchema } from './records.js';
import type { ConversationRecord } from './records.js';
import { StoreError } from './store-error.js';

/** Archive shards are smaller than hot ones would need to be: a lookup scans one file. */
const ARCHIVE_SHARDS = 256;

/**
 * Archived conversations, appended to one JSON Lines file per shard. No index is kept: a lookup reads
 * the key's shard and takes the last copy, so start-up pays nothing for the archive however large.
 */
export class ArchiveShards {
  private readonly files = new Map<number, JsonLinesFile>();

  /** `onSync` hears of every fsync: an archived copy is synced before the hot record says "archived". */
  constructor(
    private readonly dir: string,
    private readonly onSync: () => void = () => {},
  ) {}

  async append(records: Array<{ key: string; json: string }>): Promise<void> {
    const byShard = new Map<number, string[]>();
    for (const { key, json } of records) {
      const index = shardOf(key, ARCHIVE_SHARDS);
      const lines = byShard.get(index) ?? [];
      lines.push(json);
      byShard.set(index, lines);
    }
    for (const [index, lines] of byShard) await this.file(index).append(lines);
  }

  async find(key: string): Promise<ConversationRecord | undefined> {
    const file = this.file(shardOf(key, ARCHIVE_SHARDS));
    let found: { text: string; lineNumber: number } | undefined;
    await file.forEach((text, lineNumber) => {
      // Cheap pre-check before parsing: the key is always serialised as a JSON string.
      if (!text.includes(JSON.stringify(key))) return;
      try {
        if ((JSON.parse(text) as { key?: unknown }).key === key) found = { text, lineNumber };
      } catch {
        // A torn line from a crash during an append: the record is still in the hot set.
      }
    });
    if (!found) return undefined;
    const result = conversationSchema.safeParse(JSON.parse(found.text));
    if (!result.success) {
      throw new StoreError(
        'corrupt',
        `The archive file ${file.path} line ${found.lineNumber} is not a valid conversation; it cannot be read back.`,
      );
    }
    return result.data;
  }

  /**
   * Drops superseded copies and copies of conversations that `isArchived` no longer claims (back in the
   * hot set, or orphans of a crash); returns how many lines were dropped.
   */
  async compact(isArchived: (key: string) => boolean): Promise<number> {
    let dropped = 0;
    for (let index = 0; index < ARCHIVE_SHARDS; index += 1) {
      const latest = new Map<string, number>();
      dropped += await this.file(index).rewrite(
        (text, lineNumber) => {
          const key = keyOf(text);
          return key !== undefined && latest.get(key) === lineNumber && isArchived(key);
        },
        (text, lineNumber) => {
          const key = keyOf(text);
          if (key !== undefined) latest.set(key, lineNumber);
        },
      );
    }
    return dropped;
  }

  /** Drops every copy of these conversations (rewriting only their shards); with `dryRun`, only counts them. */
  async remove(keys: readonly string[], dryRun: boolean): Promise<number> {
    const byShard = new Map<number, Set<string>>();
    for (const key of keys) {
      const index = shardOf(key, ARCHIVE_SHARDS);
      byShard.set(index, (byShard.get(index) ?? new Set()).add(key));
    }
    let count = 0;
    for (const [index, gone] of byShard) {
      const file = this.file(index);
      const names = (text: string) => {
        const key = keyOf(text);
        return key !== undefined && gone.has(key);
      };
      if (dryRun) {
        await file.forEach((text) => {
          if (names(text)) count += 1;
        });
      } else count += await file.rewrite((text) => !names(text));
    }
    return count;
  }

  private file(index: number): JsonLinesFile {
    let file = this.files.get(index);
    if (!file) {
      file = new JsonLinesFile(join(this.dir, shardFileName(index)), this.onSync);
      this.files.set(index, file);
    }
    return file;
  }
}

function keyOf(text: string): string | undefined {
  try {
    const key = (JSON.parse(text) as { key?: unknown }).key;
    return typeof key === 'string' ? key : undefined;
  } catch {
    return undefined;
  }
}
