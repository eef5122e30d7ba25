import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RateLimitRegistry } from '../../src/engage/index.js';
import { BRIDGE_CLIENT_CONCURRENCY, bridgeClientConcurrency, bucketOf } from '../../src/cli/bridge-options.js';
import { ok, startScriptedServer, type ScriptedServer } from '../engage/helpers/scripted-server.js';
import { testClient } from '../engage/helpers/test-client.js';
import { waitFor } from '../support/wait-for.js';

let server: ScriptedServer;
let letGo = (): void => undefined;
beforeEach(async () => {
  server = await startScriptedServer();
  const held = new Promise<void>((resolve) => {
    letGo = resolve;
  });
  // Every answer waits until the test lets go: what arrives meanwhile is what the client has in flight at once.
  server.fallback = () => ({ ...ok({ service: 'whatsapp', service_id: '1', owner: 'agents', date: { updated: null } }), hold: held });
});
afterEach(async () => {
  letGo();
  await server.close();
});

function bridgeClient(contacts: number) {
  return testClient(server, {
    rateLimit: { registry: new RateLimitRegistry(bucketOf(0)), concurrency: bridgeClientConcurrency(contacts) },
  }).client;
}

describe("the bridge's client lets every contact at work make its handover call at once", () => {
  it('has one owner check per contact in flight together, 20 contacts at once', async () => {
    const client = bridgeClient(20);
    const calls = Array.from({ length: 20 }, (_, i) => client.handover.get({ service: 'whatsapp', serviceId: String(32470000001 + i) }));
    await waitFor('20 owner checks in flight', () => server.requests.length === 20);
    expect(client.stats().queued.handover).toBe(0);
    letGo();
    await Promise.all(calls);
    await client.close();
  });

  it("has every new contact's facts read in flight together, 20 contacts at once", async () => {
    const client = bridgeClient(20);
    const reads = Array.from({ length: 20 }, (_, i) => client.mentions.get({ topicId: 2001, id: 9001 + i }));
    await waitFor('20 reads in flight', () => server.requests.length === 20);
    expect(client.stats().queued.read).toBe(0);
    letGo();
    await Promise.allSettled(reads);
    await client.close();
  });

  it('keeps writes at the limit the bench measures the client alone with', async () => {
    expect(bridgeClientConcurrency(32)).toEqual({ read: 32, write: BRIDGE_CLIENT_CONCURRENCY.write, handover: 32 });
    // Fewer contacts than a class's floor keep the floor: a manager's handover never waits for a worker's.
    expect(bridgeClientConcurrency(1)).toEqual(BRIDGE_CLIENT_CONCURRENCY);
    // Many contacts at once do not open a connection each: the classes stop at a bound.
    expect(bridgeClientConcurrency(1000)).toEqual({ read: 64, write: BRIDGE_CLIENT_CONCURRENCY.write, handover: 64 });
  });
});
