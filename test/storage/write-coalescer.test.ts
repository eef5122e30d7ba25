import { describe, expect, it } from 'vitest';
import { WriteCoalescer } from '../../src/storage/write-coalescer.js';

function recorder(failures = 0) {
  const log: { writes: number; errors: unknown[] } = { writes: 0, errors: [] };
  let toFail = failures;
  const write = async (): Promise<void> => {
    log.writes += 1;
    if (toFail > 0) {
      toFail -= 1;
      throw new Error('disk full');
    }
  };
  return { log, write };
}

describe('the write coalescer', () => {
  it('settles many durable waiters with one write', async () => {
    const { log, write } = recorder();
    const coalescer = new WriteCoalescer(write, { minIntervalMs: 0, retryDelayMs: 0, onError: (e) => log.errors.push(e) });
    await Promise.all(Array.from({ length: 50 }, () => coalescer.whenDurable()));
    expect(log.writes).toBe(1);
  });

  it('does not write when nothing changed', async () => {
    const { log, write } = recorder();
    const coalescer = new WriteCoalescer(write, { minIntervalMs: 0, retryDelayMs: 0, onError: () => {} });
    await coalescer.flush();
    expect(log.writes).toBe(0);
  });

  it('rejects the waiters of a failed write, reports it, and succeeds on the next write', async () => {
    const { log, write } = recorder(1);
    const coalescer = new WriteCoalescer(write, { minIntervalMs: 0, retryDelayMs: 1, onError: (e) => log.errors.push(e) });
    await expect(coalescer.whenDurable()).rejects.toThrow('disk full');
    expect(log.errors).toHaveLength(1);
    await coalescer.flush();
    expect(log.writes).toBe(2);
  });

  it('writes again for a mutation made while a write is running', async () => {
    let release: () => void = () => {};
    let writes = 0;
    const coalescer = new WriteCoalescer(
      () => {
        writes += 1;
        return writes === 1 ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
      },
      { minIntervalMs: 0, retryDelayMs: 0, onError: () => {} },
    );
    const first = coalescer.whenDurable();
    const deadline = Date.now() + 5000;
    while (writes === 0 && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    const second = coalescer.whenDurable();
    release();
    await Promise.all([first, second]);
    expect(writes).toBe(2);
  });
});
