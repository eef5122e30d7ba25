import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

/** How long a shard file stays open after its last cold read: a pass over many reads each file many times. */
const KEEP_OPEN_MS = 1000;

interface OpenShard {
  handle: Promise<FileHandle>;
  users: number;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Open snapshot shard files for cold reads. A pass over thousands of cold conversations (reconcile, every 15 s)
 * used to open and close a file for each record; here a file is opened once and kept for a moment after its last
 * read. A snapshot renaming a new file over one kept open `forget`s it before any cold slot points into the new
 * file (a record may change without a new `updatedAt`, so the old file could pass a read's version check); a
 * read that finds a line not matching its slot forgets the file too.
 */
export class ColdShardFiles {
  private readonly files = new Map<string, OpenShard>();

  /** Runs `read` on the open file (opening it if needed); rejects as `open` does (ENOENT when there is none). */
  async with<T>(path: string, read: (handle: FileHandle) => Promise<T>): Promise<T> {
    let entry = this.files.get(path);
    if (!entry) {
      entry = { handle: open(path, 'r'), users: 0, timer: undefined };
      this.files.set(path, entry);
    }
    entry.users += 1;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
    try {
      return await read(await entry.handle);
    } catch (error) {
      this.forget(path);
      throw error;
    } finally {
      entry.users -= 1;
      if (entry.users === 0 && this.files.get(path) === entry) {
        entry.timer = setTimeout(() => this.forget(path), KEEP_OPEN_MS).unref();
      } else if (entry.users === 0) {
        closeQuietly(entry);
      }
    }
  }

  /** The next read of `path` opens it again (the file kept open may have been replaced). */
  forget(path: string): void {
    const entry = this.files.get(path);
    if (!entry) return;
    this.files.delete(path);
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
    if (entry.users === 0) closeQuietly(entry);
  }

  /** Closes every file not being read; one being read closes when its read ends. */
  closeAll(): void {
    for (const path of [...this.files.keys()]) this.forget(path);
  }
}

function closeQuietly(entry: OpenShard): void {
  // A file that failed to open has nothing to close; a close error on a read-only handle changes nothing.
  void entry.handle.then((handle) => handle.close()).catch(() => undefined);
}
