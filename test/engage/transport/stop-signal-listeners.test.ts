import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RateLimitRegistry } from '../../../src/engage/index.js';
import { onStop } from '../../../src/engage/transport/on-stop.js';
import { waitFor } from '../../support/wait-for.js';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { testClient } from '../helpers/test-client.js';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

// Every call waiting for the budget listened to the client's stop signal on its own: past ten at once, Node printed
// "MaxListenersExceededWarning: Possible EventTarget memory leak detected" (seen in the benchmark's limit run),
// which tells an operator of a leak that is not there.
describe("calls waiting for the budget share one listener on the client's stop signal", () => {
  it('lets 30 calls wait at once with no leak warning, and the client stopping still ends every wait', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    const sleeping: Array<() => void> = [];
    const { client } = testClient(server, {
      sleep: () => new Promise<void>((resolve) => sleeping.push(resolve)),
      rateLimit: { registry: new RateLimitRegistry({ burst: 1, requestsPerSecond: 0.001 }), concurrency: { handover: 64 } },
    });
    try {
      server.script(ok({ owner: 'agents', date: { updated: null } }));
      // The budget's one token goes to this call; the 30 after it wait.
      expect((await client.handover.get({ service: 'web', serviceId: 'v1' })).owner).toBe('agents');
      const waiting = Array.from({ length: 30 }, () =>
        client.handover.get({ service: 'web', serviceId: 'v1' }).then(
          () => 'answered',
          () => 'stopped',
        ),
      );
      await waitFor('30 calls waiting for the budget', () => sleeping.length === 30, 5000);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
      client.abortInFlight();
      expect(await Promise.all(waiting)).toEqual(Array.from({ length: 30 }, () => 'stopped'));
      expect(server.requests).toHaveLength(1);
      await client.close();
    } finally {
      process.off('warning', onWarning);
      for (const wake of sleeping) wake();
    }
  });
});

describe('onStop', () => {
  it('wakes a waiter added after the stop, and every waiter even when one throws', async () => {
    const stop = new AbortController();
    const woken: string[] = [];
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      onStop(stop.signal, () => woken.push('a'));
      onStop(stop.signal, () => {
        throw new Error('a waiter failed');
      });
      const detachC = onStop(stop.signal, () => woken.push('c'));
      onStop(stop.signal, () => woken.push('d'));
      detachC();
      stop.abort();
      expect(woken).toEqual(['a', 'd']);
      onStop(stop.signal, () => woken.push('late'));
      const detachLate = onStop(stop.signal, () => woken.push('detached before its turn'));
      detachLate();
      await waitFor('the late waiter woken', () => woken.includes('late'));
      await waitFor('the failure reported', () => uncaught.length === 1);
      expect((uncaught[0] as Error).message).toBe('a waiter failed');
      expect(woken).toEqual(['a', 'd', 'late']);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
