import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidParameterError, readOwnership, handoverItemSchema } from '../../../src/engage/index.js';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { testClient } from '../helpers/test-client.js';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

const item = (owner: string, updated: number | null) => ({
  service: 'whatsapp',
  service_id: 32470000001,
  owner,
  application_id: owner === 'application' ? 'bridge-app' : null,
  date: { updated },
});

describe('handover', () => {
  it('reads, gives to agents and returns to the application with GET, POST and DELETE', async () => {
    const { client } = testClient(server);
    server.script(ok(item('agents', null)), ok(item('agents', 1700000000)), ok(item('application', 1700000001)));
    const ref = { service: 'whatsapp', serviceId: 32470000001 };
    const current = await client.handover.get(ref);
    const agents = await client.handover.toAgents(ref);
    const app = await client.handover.toApplication(ref);
    expect(server.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual([
      'GET /1001/inbox/handover/whatsapp/32470000001',
      'POST /1001/inbox/handover/whatsapp/32470000001',
      'DELETE /1001/inbox/handover/whatsapp/32470000001',
    ]);
    expect(current.service_id).toBe('32470000001');
    expect(agents.owner).toBe('agents');
    expect(app.owner).toBe('application');
  });

  it('refuses a service without handover before any request', async () => {
    const { client } = testClient(server);
    await expect(client.handover.get({ service: 'twitter', serviceId: '1' })).rejects.toBeInstanceOf(InvalidParameterError);
    expect(server.requests).toHaveLength(0);
  });

  it('retries a handover write after a server fault because it is idempotent', async () => {
    const { client } = testClient(server);
    server.script({ status: 503, body: 'busy' }, ok(item('agents', 1700000000)));
    const result = await client.handover.toAgents({ service: 'web', serviceId: 'v1' });
    expect(result.owner).toBe('agents');
    expect(server.requests).toHaveLength(2);
  });

  it('reads ownership through the one function', async () => {
    const { client } = testClient(server);
    server.script(ok(item('agents', null)));
    expect(await client.handover.ownership({ service: 'viber', serviceId: 'v' })).toEqual({
      owner: 'agents',
      neverHandedOver: true,
      updatedAt: null,
      historyKnown: true,
    });
  });
});

describe('readOwnership', () => {
  const read = (raw: unknown) => readOwnership(handoverItemSchema.parse(raw));

  it('calls a contact with owner agents and no update date never handed over', () => {
    expect(read(item('agents', null)).neverHandedOver).toBe(true);
  });

  it('calls a contact that agents took (update date set) handed over', () => {
    expect(read(item('agents', 1700000000))).toEqual({
      owner: 'agents',
      neverHandedOver: false,
      updatedAt: 1700000000,
      historyKnown: true,
    });
  });

  it('reads an application-owned contact as owned by the application', () => {
    expect(read(item('application', 1700000000))).toEqual({
      owner: 'application',
      neverHandedOver: false,
      updatedAt: 1700000000,
      historyKnown: true,
    });
  });

  it('reads an item without date.updated as history unknown, never as "never handed over" (issue 26)', () => {
    expect(read({ owner: 'agents' })).toEqual({ owner: 'agents', neverHandedOver: false, updatedAt: null, historyKnown: false });
    expect(read({ owner: 'agents', date: {} }).neverHandedOver).toBe(false);
    expect(read({ owner: 'agents', date: null }).historyKnown).toBe(false);
  });
});
