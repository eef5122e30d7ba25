import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidParameterError, type EngageClient } from '../../../src/engage/index.js';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { testClient } from '../helpers/test-client.js';

let server: ScriptedServer;
let client: EngageClient;
beforeEach(async () => {
  server = await startScriptedServer();
  client = testClient(server).client;
});
afterEach(async () => {
  await server.close();
});

const contact = {
  id: 501,
  name: 'Ann',
  socialprofiles: [{ type: 'whatsapp', service_id: 32470000001 }],
  tags: ['vip'],
  customattributes: { plan: 'gold' },
  address: { country: { name: 'Belgium', code: 'BE' } },
  date: { added: 1700000000, updated: null },
  surprise: 'kept',
};

async function refused(call: Promise<unknown>): Promise<InvalidParameterError> {
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InvalidParameterError);
  expect(server.requests).toHaveLength(0);
  return error as InvalidParameterError;
}

describe('contacts', () => {
  it('gets a contact by id and normalises ids to strings, keeping unknown fields', async () => {
    server.script(ok(contact));
    const got = await client.contacts.get({ id: 501 });
    expect(server.requests[0]!.url.split('?')[0]).toBe('/1001/inbox/contact/501');
    expect(got.id).toBe('501');
    expect(got.socialprofiles?.[0]?.service_id).toBe('32470000001');
    expect((got as Record<string, unknown>)['surprise']).toBe('kept');
  });

  it('gets a chat contact by service and service id with topic_ids', async () => {
    server.script(ok(contact));
    await client.contacts.get({ service: 'whatsapp', serviceId: '32470000001' }, { topicIds: [2001, 2002] });
    const req = server.requests[0]!;
    expect(req.url.split('?')[0]).toBe('/1001/inbox/contact/whatsapp/32470000001');
    expect(req.params.get('topic_ids')).toBe('2001,2002');
  });

  it('refuses a chat contact by service without topic_ids before any request', async () => {
    for (const service of ['wechat', 'twilio', 'web', 'whatsapp', 'viber']) {
      const error = await refused(client.contacts.get({ service, serviceId: '1' }));
      expect(error.humanMessage).toContain('topic_ids');
    }
    await refused(client.contacts.update({ service: 'viber', serviceId: '1' }, { company: 'Acme' }));
  });

  it('refuses Instagram by service and service id', async () => {
    const error = await refused(client.contacts.get({ service: 'instagram', serviceId: '1' }));
    expect(error.description).toContain('Instagram');
  });

  it('refuses an update of socialprofiles', async () => {
    await refused(client.contacts.update({ id: 1 }, { socialprofiles: [] }));
  });

  it('refuses an unknown edit mode and an unknown option key', async () => {
    const error = await refused(client.contacts.update({ id: 1 }, { company: 'A' }, { options: { tags_edit_mode: 'replace' as never } }));
    expect(error.description).toContain('options.tags_edit_mode');
    await refused(client.contacts.update({ id: 1 }, { company: 'A' }, { options: { colour: 'x' } as never }));
  });

  it('sends an update with its options as JSON text fields', async () => {
    server.script(ok(contact));
    await client.contacts.update(
      { service: 'twitter', serviceId: '42' },
      { tags: [], customattributes: { plan: 'gold' } },
      { options: { customattributes_edit_mode: 'overwrite', tags_edit_mode: 'update' } },
    );
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/1001/inbox/contact/twitter/42');
    expect(JSON.parse(req.params.get('updates')!)).toEqual({ tags: [], customattributes: { plan: 'gold' } });
    expect(JSON.parse(req.params.get('options')!)).toEqual({ customattributes_edit_mode: 'overwrite', tags_edit_mode: 'update' });
  });

  it('lets a country code win over a name and sends only the code', async () => {
    server.script(ok(contact));
    await client.contacts.update({ id: 1 }, { address: { country: { code: 'be', name: 'Belgum' } } });
    expect(JSON.parse(server.requests[0]!.params.get('updates')!)).toEqual({ address: { country: { code: 'BE' } } });
  });

  it('sends a country name alone for the service to look up', async () => {
    server.script(ok(contact));
    await client.contacts.update({ id: 1 }, { address: { country: { name: 'Belgium' } } });
    expect(JSON.parse(server.requests[0]!.params.get('updates')!)).toEqual({ address: { country: { name: 'Belgium' } } });
  });

  it('refuses a country code that is not ISO 3166-1 alpha-2', async () => {
    await refused(client.contacts.update({ id: 1 }, { address: { country: { code: 'XQ' } } }));
    await refused(client.contacts.update({ id: 1 }, { address: { country: { code: 'BEL' } } }));
  });

  it('maps the service refusing a country name to InvalidParameterError', async () => {
    server.script({ status: 400, body: { error: 'invalid_parameter', error_description: "Country 'Belgum' is not recognised" } });
    const error = await client.contacts.update({ id: 1 }, { address: { country: { name: 'Belgum' } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect((error as InvalidParameterError).description).toContain('Belgum');
  });

  it('refuses an empty update', async () => {
    await refused(client.contacts.update({ id: 1 }, {}));
  });

  it('deletes a contact and returns the boolean answer', async () => {
    server.script(ok(true));
    expect(await client.contacts.delete({ id: 7 })).toBe(true);
    expect(server.requests[0]!.method).toBe('DELETE');
    expect(server.requests[0]!.url).toBe('/1001/inbox/contact/7?version=20210601');
    expect(server.requests[0]!.body).toBe('');
  });

  it('validates the contacts list limit (0..50)', async () => {
    await refused(client.contacts.list({ limit: 51 }));
    server.script(ok({ data: [contact], paging: { next_url: null } }));
    const page = await client.contacts.list({ limit: 50, filter: 'contacttag:vip' });
    expect(page.data[0]?.id).toBe('501');
    expect(server.requests[0]!.params.get('filter')).toBe('contacttag:vip');
  });

  it('reports a missing required field of an answer with its path', async () => {
    server.script(ok({ name: 'no id' }));
    await expect(client.contacts.get({ id: 1 })).rejects.toThrow(/response\.id/);
  });
  it('refuses the properties the description lists as removed, before any request', async () => {
    expect((await refused(client.contacts.update({ id: 1 }, { gender: 'f' }))).humanMessage).toContain('gender was removed');
    expect((await refused(client.contacts.update({ id: 1 }, { url: 'https://x.test' }))).humanMessage).toContain('url was removed');
    expect((await refused(client.contacts.update({ id: 1 }, { notes: 'vip' }))).humanMessage).toContain('use comments');
    for (const key of ['street', 'number', 'zip']) {
      const error = await refused(client.contacts.update({ id: 1 }, { address: { [key]: '1' } as never }));
      expect(error.humanMessage).toContain(`address.${key} was removed`);
    }
  });

  it('refuses codes Intl knows but ISO 3166-1 alpha-2 does not assign (UK, EU, XK)', async () => {
    for (const code of ['UK', 'EU', 'XK', 'YU', 'ZZ']) {
      const error = await refused(client.contacts.update({ id: 1 }, { address: { country: { code } } }));
      expect(error.humanMessage).toContain('ISO 3166-1 alpha-2');
    }
    server.script(ok(contact));
    await client.contacts.update({ id: 1 }, { address: { country: { code: 'gb' } } });
    expect(JSON.parse(server.requests[0]!.params.get('updates')!)).toEqual({ address: { country: { code: 'GB' } } });
  });

  it('under a version below 20210601 refuses an update that would clear the tags, and sends one that names them', async () => {
    const old = testClient(server, { version: '20200101' }).client;
    const error = await refused(old.contacts.update({ id: 1 }, { company: 'Acme' }));
    expect(error.humanMessage).toContain('clears the contact');
    server.script(ok(contact));
    await old.contacts.update({ id: 1 }, { company: 'Acme', tags: ['vip'] });
    expect(server.requests).toHaveLength(1);
  });
});
