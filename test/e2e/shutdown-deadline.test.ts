import { describe, it, expect, afterEach } from 'vitest';
import { settlesWithin } from '../../src/cli/settles-within.js';
import { openSqliteStore } from '../../src/storage/index.js';
import { botMessagesTo, startHarness, waitFor, type Harness } from './harness.js';

let h: Harness | undefined;
let stopped = false;
afterEach(async () => {
  if (h && !stopped) await h.stop();
  h = undefined;
  stopped = false;
});

const ANN = '32470000077';

describe('shutdown', () => {
  it('keeps to its deadline while the API holds every request, and leaves the reply pending for the next start', async () => {
    // A request timeout far beyond the test's own: only the shutdown deadline can end the held request.
    h = await startHarness({ env: { ENGAGE_REQUEST_TIMEOUT_MS: '300000', BRIDGE_SHUTDOWN_DEADLINE_MS: '2000' } });
    const first = await h.control('/_sim/inbound', { channel: 'whatsapp', author: { id: ANN, name: 'Ann' }, text: 'hello' });
    await h.running.bridge.acceptWebhook([first]);
    await h.running.bridge.idle();
    // Generous deadlines: the machine may be loaded; nothing here measures time.
    await waitFor('the first reply', () => botMessagesTo(h!, ANN).length >= 1, 30_000);
    const repliesBefore = botMessagesTo(h, ANN).length;

    // From now on the API holds every request and never answers.
    await h.control('/_sim/faults', { timeout: 1 });
    const second = await h.control('/_sim/inbound', { channel: 'whatsapp', author: { id: ANN, name: 'Ann' }, text: 'hello again' });
    const heldBefore = h.requests().filter((r) => r.status === 0).length;
    await h.running.bridge.acceptWebhook([second]);
    await waitFor('a request held by the API', () => h!.requests().filter((r) => r.status === 0).length > heldBefore, 30_000);

    const finished = await settlesWithin(h.stop(), 20_000);
    stopped = true;
    expect(finished, 'stop() finished while the API held its requests').toBe(true);
    expect(botMessagesTo(h, ANN).length).toBe(repliesBefore);

    const store = await openSqliteStore({ dataDir: h.dataDir });
    try {
      const pending = await store.pendingEffects();
      expect(pending.length).toBeGreaterThan(0);
      expect(pending.every((e) => e.contactKey.includes(ANN))).toBe(true);
    } finally {
      await store.close();
    }
  }, 90_000);
});
