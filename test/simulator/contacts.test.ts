import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, V, type TestSim } from './sim-helpers.js';

let s: TestSim;
const path = '/1001/inbox/contact/whatsapp/3247002';
beforeAll(async () => {
  s = await startSim();
  await s.inbound('whatsapp', '3247002', 'hi');
  await s.inbound('instagram', 'insta1', 'hi');
});
afterAll(() => s.close());

const update = (updates: unknown, extra: Record<string, unknown> = {}) =>
  s.api('POST', path, { topic_ids: '2001', version: V, updates, ...extra });

describe('contacts', () => {
  it('requires topic_ids for whatsapp contacts and accepts them given', async () => {
    const missing = await s.api('GET', path, { version: V });
    expect(missing.status).toBe(400);
    expect(missing.body.error_description).toContain('topic_ids');
    const ok = await s.api('GET', path, { version: V, topic_ids: '2001' });
    expect(ok.status).toBe(200);
    expect(ok.body.response.socialprofiles).toEqual([{ type: 'whatsapp', service_id: '3247002' }]);
  });

  it('addresses a contact by id too, and refuses instagram by service', async () => {
    const byService = await s.api('GET', path, { topic_ids: '2001' });
    const byId = await s.api('GET', `/1001/inbox/contact/${byService.body.response.id}`, { topic_ids: '2001' });
    expect(byId.body.response.id).toBe(byService.body.response.id);
    const insta = await s.api('GET', '/1001/inbox/contact/instagram/insta1');
    expect(insta.status).toBe(400);
    expect(insta.body.error).toBe('invalid_parameter');
  });

  it('always shows a whatsapp telephone on a single fetch but not in lists until saved', async () => {
    const one = await s.api('GET', path, { topic_ids: '2001' });
    expect(one.body.response.telephone).toBe('3247002');
    const list = await s.api('GET', '/1001/inbox/contacts', { filter: 'service:whatsapp' });
    expect(list.body.response.data[0]).not.toHaveProperty('telephone');
  });

  it('lets the country code win over the name and looks a name up in the English list', async () => {
    const both = await update({ address: { country: { name: 'France', code: 'BE' } } });
    expect(both.body.response.address.country).toEqual({ code: 'BE', name: 'Belgium' });
    const name = await update({ address: { country: { name: 'bosnia and herzegovina' } } });
    expect(name.body.response.address.country).toEqual({ code: 'BA', name: 'Bosnia and Herzegovina' });
  });

  it('answers 400 invalid_parameter for an unknown country and changes nothing', async () => {
    await update({ company: 'Acme', address: { country: { code: 'NL' } } });
    const r = await update({ company: 'Changed', address: { country: { name: 'Belgum' } } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid_parameter', error_description: "Country 'Belgum' is not recognised" });
    const after = await s.api('GET', path, { topic_ids: '2001' });
    expect(after.body.response.company).toBe('Acme');
    expect(after.body.response.address.country.code).toBe('NL');
  });

  it('refuses socialprofiles and unknown keys in updates or options', async () => {
    expect((await update({ socialprofiles: [] })).status).toBe(400);
    expect((await update({ gender: 'x' })).status).toBe(400);
    expect((await update({ company: 'x' }, { options: { colour_mode: 'x' } })).status).toBe(400);
    expect((await update({ company: 'x' }, { options: { tags_edit_mode: 'replace' } })).status).toBe(400);
  });

  it('edits tags by mode and keeps them when tags are absent from 20210601', async () => {
    await update({ tags: ['a', 'b'] });
    expect((await update({ tags: ['c'] }, { options: { tags_edit_mode: 'add' } })).body.response.tags).toEqual(['a', 'b', 'c']);
    expect((await update({ tags: ['a'] }, { options: { tags_edit_mode: 'delete' } })).body.response.tags).toEqual(['b', 'c']);
    expect((await update({ company: 'Keep' })).body.response.tags).toEqual(['b', 'c']);
    expect((await update({ tags: [] })).body.response.tags).toEqual([]);
  });

  it('clears tags on an update without tags below version 20210601 and without any version', async () => {
    await update({ tags: ['x'] });
    const old = await s.api('POST', path, { topic_ids: '2001', version: '20210531', updates: { company: 'Old' } });
    expect(old.body.response.tags).toEqual([]);
    await update({ tags: ['y'] });
    const none = await s.api('POST', path, { topic_ids: '2001', updates: { company: 'None' } });
    expect(none.body.response.tags).toEqual([]);
  });

  it('edits custom attributes in update, overwrite and delete modes', async () => {
    await update({ customattributes: { a: 1, b: 2 } }, { options: { customattributes_edit_mode: 'overwrite' } });
    expect((await update({ customattributes: { c: 3 } })).body.response.customattributes).toEqual({ a: 1, b: 2, c: 3 });
    const del = await update({ customattributes: ['a'] }, { options: { customattributes_edit_mode: 'delete' } });
    expect(del.body.response.customattributes).toEqual({ b: 2, c: 3 });
    const over = await update({ customattributes: { z: 'only' } }, { options: { customattributes_edit_mode: 'overwrite' } });
    expect(over.body.response.customattributes).toEqual({ z: 'only' });
  });

  it('needs updates on POST and deletes the contact details on DELETE', async () => {
    expect((await s.api('POST', path, { topic_ids: '2001' })).status).toBe(400);
    const del = await s.api('DELETE', path);
    expect(del.body.response).toBe(true);
    const after = await s.api('GET', path, { topic_ids: '2001' });
    expect(after.body.response.company).toBe('');
    expect(after.body.response.socialprofiles).toHaveLength(1);
  });

  it('answers 404 for an unknown contact', async () => {
    const r = await s.api('GET', '/1001/inbox/contact/whatsapp/000', { topic_ids: '2001' });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('not_found');
  });

  it('lists contacts with a contacttag filter and a limit of at most 50', async () => {
    await update({ tags: ['vip'] });
    const list = await s.api('GET', '/1001/inbox/contacts', { filter: 'contacttag:vip' });
    expect(list.body.response.count).toBe(1);
    expect((await s.api('GET', '/1001/inbox/contacts', { limit: '51' })).status).toBe(400);
  });
});
