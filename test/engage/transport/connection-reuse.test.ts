import { afterEach, describe, expect, it } from 'vitest';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { testClient } from '../helpers/test-client.js';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('connections to the service', () => {
  it('are kept across calls whose parameters go in a body, a DELETE as much as a POST or a GET', async () => {
    server = await startScriptedServer({ keepAliveMs: 10_000 });
    const s = server;
    s.fallback = () => ok({ owner: 'application' });
    const { client } = testClient(s);
    const ref = { service: 'whatsapp', serviceId: '32470000001' };
    for (let i = 0; i < 4; i++) await client.handover.toApplication(ref);
    await client.handover.get(ref);
    await client.handover.toApplication(ref);
    expect(s.requests.map((r) => r.method)).toEqual(['DELETE', 'DELETE', 'DELETE', 'DELETE', 'GET', 'DELETE']);
    // Its parameters did go (in the query).
    expect(s.requests[0]?.params.get('version')).not.toBeNull();
    // One each call closed, before; the pool may open a second while undici waits a turn to reuse the first.
    expect(s.connections).toBeLessThanOrEqual(2);
    await client.close();
  });
});
