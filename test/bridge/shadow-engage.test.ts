import { afterEach, describe, expect, it } from 'vitest';
import { ShadowLog } from '../../src/bridge/shadow-log.js';
import { shadowEngage } from '../../src/bridge/shadow-engage.js';
import { createEngageClient, RateLimitRegistry, type EngageClient } from '../../src/engage/index.js';
import { createSimulator, type RunningSimulator } from '../../src/simulator/index.js';

let server: RunningSimulator | undefined;
let client: EngageClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  server = undefined;
  client = undefined;
});

const T0 = Math.floor(Date.UTC(2026, 10, 18, 9, 0, 0) / 1000);

async function setUp() {
  const handle = createSimulator();
  handle.sim.setClock(T0);
  server = await handle.listen({ host: '127.0.0.1', port: 0 });
  client = createEngageClient({
    baseUrl: server.url,
    accountId: '1001',
    accessToken: 'sim-token',
    rateLimit: { registry: new RateLimitRegistry() },
  });
  const log = new ShadowLog(T0 * 1000);
  const engage = shadowEngage(client, log, () => T0 * 1000);
  const control = async (path: string, body: unknown) => {
    const res = await fetch(`${server?.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.ok).toBe(true);
  };
  // Each customer of the tests has written once, so the service knows the contact.
  for (const id of ['32476000001', '32476000002', '32476000003', '32476000004']) {
    await control('/_sim/inbound', { channel: 'whatsapp', author: { id, name: 'Ann' }, text: 'hello' });
  }
  const writes = () => handle.sim.requests.after(0).filter((r) => r.method !== 'GET' && !r.path.startsWith('/_sim'));
  return { sim: handle.sim, engage, log, control, writes };
}

describe('the shadow client (BRIDGE_MODE=shadow)', () => {
  it('counts a claim of a contact people took as a claim from people, and sends it to nobody', async () => {
    const { engage, log, control, writes } = await setUp();
    await control('/_sim/handover', { channel: 'whatsapp', service_id: '32476000001', owner: 'agents' });
    await engage.handover.toApplication({ service: 'whatsapp', serviceId: '32476000001' });
    // A contact nobody ever handed over is the bot's to claim: counted, but not from people.
    await engage.handover.toApplication({ service: 'whatsapp', serviceId: '32476000002' });
    expect(log.tally()).toMatchObject({ wouldClaim: 2, wouldClaimFromPeople: 1 });
    expect(writes()).toEqual([]);
  });

  it('reads a contact as the bridge would have left it, until people change it later in the service', async () => {
    const { sim, engage, control } = await setUp();
    const ref = { service: 'whatsapp', serviceId: '32476000003' };
    await engage.handover.toApplication(ref);
    expect((await engage.handover.get(ref)).owner).toBe('application');
    sim.setClock(T0 + 30);
    await control('/_sim/handover', { channel: 'whatsapp', service_id: '32476000003', owner: 'agents' });
    expect((await engage.handover.get(ref)).owner).toBe('agents');
  });

  it('answers a reply, a mention update and a handover to people without a write call reaching the service', async () => {
    const { engage, log, writes } = await setUp();
    const answer = await engage.publisher.add({
      type: 'reply',
      services: [{ type: 'whatsapp', service_id: 'x' }],
      message: 'hi',
      status: '',
    });
    expect(answer).toEqual({ messages: [], publisher_mention: null });
    await engage.handover.toAgents({ service: 'whatsapp', serviceId: '32476000004' });
    expect(log.tally().writesWithheld).toEqual({ 'publisher/add': 1, 'handover to people': 1 });
    expect(writes()).toEqual([]);
  });
});
