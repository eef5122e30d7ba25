import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/storage/sqlite/open-sqlite-store.js';

const CHILD = join(import.meta.dirname, '..', 'fixtures', 'sqlite-busy-child.ts');
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Runs the busy writer until it acknowledged `killAfter` decisions, kills it with SIGKILL, returns the acknowledged. */
async function runAndKill(dataDir: string, first: number, killAfter: number): Promise<number[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, String(first)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const acked: number[] = [];
  let err = '';
  let buffered = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`the writer did not get to ${killAfter} acks: ${err}`)), 60_000);
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) if (line.startsWith('ack ')) acked.push(Number(line.slice(4)));
      if (acked.length >= killAfter) {
        clearTimeout(deadline);
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.once('exit', () => {
      clearTimeout(deadline);
      if (acked.length < killAfter) reject(new Error(`the writer ended early: ${err}`));
    });
  });
  await exited;
  return acked;
}

describe('the SQLite store killed with kill -9 in the middle of a busy write load', () => {
  it('keeps every acknowledged decision whole and shows nothing half-done, kill after kill', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'sqlite-kill-')), 'data');
    dirs.push(join(dataDir, '..'));
    const acked: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      // A random point of the load: after 20 to 220 acknowledged decisions.
      acked.push(...(await runAndKill(dataDir, round * 100_000, 20 + Math.floor(Math.random() * 200))));
      const store = await openSqliteStore({ dataDir });
      try {
        for (const n of acked) {
          expect((await store.getEffect(`d-${n}`))?.kind, `decision ${n}`).toBe('decision');
          expect(await store.getEffect(`e-${n}-1`), `reply of ${n}`).toBeDefined();
          expect(await store.getEffect(`e-${n}-2`), `note of ${n}`).toBeDefined();
        }
        // Nothing half-done: every effect kept has its decision's mark, and every line its mark.
        for (const effect of await store.pendingEffects()) {
          const n = effect.key.split('-')[1];
          expect(await store.getEffect(`d-${n}`), `mark of ${effect.key}`).toBeDefined();
        }
        for (const record of await store.listConversations())
          for (const line of record.transcript)
            expect(await store.getEffect(`d-${line.mentionId}`), `mark of line ${line.text}`).toBeDefined();
      } finally {
        await store.close();
      }
    }
  }, 180_000);
});
