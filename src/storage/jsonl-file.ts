import { createReadStream } from 'node:fs';
import { appendFile, open, rename, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { StoreError, describeCause } from './store-error.js';
import { isCode } from './lock-file.js';
import { PRIVATE_FILE_MODE } from './private-files.js';
import { syncDir } from './sync-dir.js';

export interface LineSpan {
  offset: number;
  length: number;
}

/**
 * An append-only JSON Lines file. Operations on one file run one at a time, so an append never
 * interleaves with a rewrite and byte offsets stay exact.
 */
export class JsonLinesFile {
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * The file's length after our last append, which ended it with a newline; undefined until then, and again after a
   * failure or a rewrite. The store's lock keeps other writers out, so while it is known the next append needs no
   * look at the file (it was a stat and a read of the last byte, each with its own open and close).
   */
  private knownEnd: number | undefined;
  /** With `keepOpen`: the append handle, open from the first append to `close` (or a rewrite). */
  private handle: FileHandle | undefined;

  /**
   * With `onSync`, appends and rewrites are synced (file and directory) before they resolve. With `keepOpen`, one
   * handle serves every append (for a busy file, such as the audit log) until `close`.
   */
  constructor(
    readonly path: string,
    private readonly onSync?: () => void,
    private readonly options: { keepOpen?: boolean } = {},
  ) {}

  /** Appends one line per text; returns where each line's text starts and how many bytes it has. */
  append(texts: string[]): Promise<LineSpan[]> {
    return this.exclusive('append to', async () => {
      const known = this.knownEnd;
      this.knownEnd = undefined;
      let offset = known ?? (await this.size());
      // A crash in the middle of an append leaves a torn last line: start ours on a fresh line.
      let chunk = known === undefined && offset > 0 && !(await this.endsWithNewline(offset)) ? '\n' : '';
      offset += chunk.length;
      const spans = texts.map((text) => {
        const length = Buffer.byteLength(text);
        const span = { offset, length };
        offset += length + 1;
        return span;
      });
      chunk += `${texts.join('\n')}\n`;
      if (this.onSync) await this.appendSynced(chunk, offset === chunk.length);
      else if (this.options.keepOpen) await this.appendKept(chunk);
      else await appendFile(this.path, chunk, { encoding: 'utf8', mode: PRIVATE_FILE_MODE });
      this.knownEnd = offset;
      return spans;
    });
  }

  /** Closes the kept append handle, if any; appending again opens the file again and looks at its end afresh. */
  close(): Promise<void> {
    return this.exclusive('close', () => {
      this.knownEnd = undefined;
      return this.closeHandle();
    });
  }

  readAt(span: LineSpan): Promise<string> {
    return this.wrap('read', async () => {
      const handle = await open(this.path, 'r');
      try {
        const buffer = Buffer.alloc(span.length);
        const { bytesRead } = await handle.read(buffer, 0, span.length, span.offset);
        return buffer.subarray(0, bytesRead).toString('utf8');
      } finally {
        await handle.close();
      }
    });
  }

  /** Visits every non-empty line in order (1-based line numbers); a missing file has none. */
  forEach(visit: (text: string, lineNumber: number) => void): Promise<void> {
    return this.exclusive('read', () => this.scan(visit));
  }

  /**
   * Keeps only the lines `keep` accepts (streamed to a temp file, then renamed); returns how many were
   * dropped. `survey`, when given, first sees every line in the same turn, so nothing is appended between.
   */
  rewrite(keep: (text: string, lineNumber: number) => boolean, survey?: (text: string, lineNumber: number) => void): Promise<number> {
    return this.exclusive('rewrite', async () => {
      // The file may be replaced: the next append looks at it afresh.
      this.knownEnd = undefined;
      await this.closeHandle();
      if ((await this.size()) === 0) return 0;
      if (survey) await this.scan(survey);
      const temp = join(dirname(this.path), `.${basename(this.path)}.tmp`);
      const out = await open(temp, 'w', PRIVATE_FILE_MODE);
      let dropped = 0;
      let pending: string[] = [];
      try {
        for await (const { text, lineNumber } of this.lines()) {
          if (!keep(text, lineNumber)) {
            dropped += 1;
            continue;
          }
          pending.push(text);
          if (pending.length >= 1000) {
            await out.write(`${pending.join('\n')}\n`);
            pending = [];
          }
        }
        if (pending.length > 0) await out.write(`${pending.join('\n')}\n`);
        if (this.onSync) {
          await out.datasync();
          this.onSync();
        }
      } finally {
        await out.close();
      }
      if (dropped === 0) await rm(temp, { force: true });
      else {
        await rename(temp, this.path);
        if (this.onSync) await syncDir(dirname(this.path));
      }
      return dropped;
    });
  }

  private async appendSynced(chunk: string, created: boolean): Promise<void> {
    const handle = await open(this.path, 'a', PRIVATE_FILE_MODE);
    try {
      await handle.write(chunk, null, 'utf8');
      await handle.datasync();
      this.onSync?.();
    } finally {
      await handle.close();
    }
    if (created) await syncDir(dirname(this.path));
  }

  private async appendKept(chunk: string): Promise<void> {
    this.handle ??= await open(this.path, 'a', PRIVATE_FILE_MODE);
    try {
      await this.handle.write(chunk, null, 'utf8');
    } catch (error) {
      // A short or failed write leaves the end unknown: the next append opens the file again and looks.
      await this.closeHandle();
      throw error;
    }
  }

  private async closeHandle(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
  }

  private async scan(visit: (text: string, lineNumber: number) => void): Promise<void> {
    for await (const { text, lineNumber } of this.lines()) visit(text, lineNumber);
  }

  /** Non-empty lines in order with their 1-based numbers; a missing file has none. */
  private async *lines(): AsyncGenerator<{ text: string; lineNumber: number }> {
    const stream = createReadStream(this.path, { encoding: 'utf8' });
    const opened = new Promise<boolean>((resolve, reject) => {
      stream.once('ready', () => resolve(true));
      stream.once('error', (error) => (isCode(error, 'ENOENT') ? resolve(false) : reject(error)));
    });
    if (!(await opened)) return;
    let lineNumber = 0;
    for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
      lineNumber += 1;
      if (text.length > 0) yield { text, lineNumber };
    }
  }

  private async size(): Promise<number> {
    try {
      return (await stat(this.path)).size;
    } catch (error) {
      if (isCode(error, 'ENOENT')) return 0;
      throw error;
    }
  }

  private async endsWithNewline(size: number): Promise<boolean> {
    const handle = await open(this.path, 'r');
    try {
      const byte = Buffer.alloc(1);
      await handle.read(byte, 0, 1, size - 1);
      return byte[0] === 0x0a;
    } finally {
      await handle.close();
    }
  }

  private exclusive<T>(verb: string, fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => this.wrap(verb, fn));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async wrap<T>(verb: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw new StoreError('io', `Cannot ${verb} ${this.path}: ${describeCause(error)}.`, { cause: error });
    }
  }
}
