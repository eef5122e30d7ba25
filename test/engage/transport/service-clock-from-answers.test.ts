import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { testClient } from '../helpers/test-client.js';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

const item = { owner: 'agents', date: { updated: null } };

describe("the service's clock as the client learns it", () => {
  it("takes the Date of good answers only: an error page's clock (a proxy's, say) is not the service's", async () => {
    const { client } = testClient(server, { retry: { maxAttempts: 1 } });
    const serviceNow = Date.UTC(2026, 10, 18, 9, 0, 0);
    server.script({ ...ok(item), headers: { date: new Date(serviceNow).toUTCString() } });
    await client.handover.get({ service: 'web', serviceId: 'v1' });
    const learned = client.serviceNowMs();
    expect(learned).toBeDefined();
    expect(Math.abs((learned as number) - serviceNow)).toBeLessThan(60_000);
    // Five days later by some other clock, on a refusal.
    server.script({
      status: 404,
      headers: { date: new Date(serviceNow + 5 * 86_400_000).toUTCString() },
      body: { error: 'not_found', error_description: 'no such contact' },
    });
    await expect(client.handover.get({ service: 'web', serviceId: 'v2' })).rejects.toThrow();
    expect(Math.abs((client.serviceNowMs() as number) - serviceNow)).toBeLessThan(60_000);
  });
});
