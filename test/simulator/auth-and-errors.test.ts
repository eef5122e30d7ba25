import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from './sim-helpers.js';

let s: TestSim;
beforeAll(async () => {
  s = await startSim();
  await s.inbound('whatsapp', '3247001', 'hello');
});
afterAll(() => s.close());

describe('tokens', () => {
  it('answers 401 invalid_token without a token', async () => {
    const r = await s.api('GET', '/1001/settings/topics', {}, { token: null });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
  });

  it('answers 401 for an unknown token', async () => {
    const r = await s.api('GET', '/1001/settings/topics', {}, { token: 'nope' });
    expect(r.status).toBe(401);
    expect(r.body.error).toBe('invalid_token');
  });

  it('accepts the token as an access_token parameter and keeps it out of the request log', async () => {
    const r = await s.api('GET', '/1001/settings/topics', { access_token: 'sim-token' }, { token: null });
    expect(r.status).toBe(200);
    const log = await s.control('GET', '/_sim/requests?after=0');
    expect(log.text).not.toContain('sim-token');
  });

  it('revokes every token of a user on a password change', async () => {
    await s.control('POST', '/_sim/tokens', { token: 'pw-a', user_id: 'u2', scopes: ['accounts_read'] });
    await s.control('POST', '/_sim/tokens', { token: 'pw-b', user_id: 'u2', scopes: ['accounts_read'] });
    expect((await s.api('GET', '/1001/settings/topics', {}, { token: 'pw-a' })).status).toBe(200);
    const revoked = await s.control('POST', '/_sim/revoke', { user_id: 'u2' });
    expect(revoked.body).toEqual({ revoked: 2 });
    for (const token of ['pw-a', 'pw-b']) {
      const r = await s.api('GET', '/1001/settings/topics', {}, { token });
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('invalid_token');
    }
    expect((await s.api('GET', '/1001/settings/topics')).status).toBe(200);
  });
});

describe('scopes', () => {
  it('answers 403 insufficient_scope when a write lacks accounts_write', async () => {
    await s.control('POST', '/_sim/tokens', { token: 'read-only', user_id: 'u1', scopes: ['accounts_read'] });
    const r = await s.api('POST', '/1001/inbox/mention/2001/9001', { updates: { status: 'done' } }, { token: 'read-only' });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('insufficient_scope');
    expect((await s.api('GET', '/1001/inbox/mention/2001/9001', {}, { token: 'read-only' })).status).toBe(200);
  });

  it('needs accounts_handover for handover and only accounts_write to delete a mention', async () => {
    const h = await s.api('GET', '/1001/inbox/handover/whatsapp/3247001', {}, { token: 'read-only' });
    expect(h.status).toBe(403);
    await s.control('POST', '/_sim/tokens', { token: 'write-only', user_id: 'u1', scopes: ['accounts_write'] });
    expect((await s.api('GET', '/1001/inbox/mention/2001/9001', {}, { token: 'write-only' })).status).toBe(403);
    expect((await s.api('POST', '/1001/publisher/add', { type: 'post' }, { token: 'write-only' })).status).toBe(403);
  });
});

describe('routing and envelope', () => {
  it('wraps answers in the envelope with meta.code 200', async () => {
    const r = await s.api('GET', '/1001/settings/topics', { version: '20210601' });
    expect(r.body.meta).toEqual({ code: 200 });
    expect(r.body.response.data).toEqual([{ id: 2001, name: 'Support' }]);
  });

  it('warns in meta.messages about unknown parameters and still answers', async () => {
    const r = await s.api('GET', '/1001/settings/topics', { colour: 'blue' });
    expect(r.status).toBe(200);
    expect(r.body.meta.messages).toEqual([{ type: 'message', text: expect.stringContaining('colour') }]);
  });

  it('answers 404 not_found for an unknown account, path or mention', async () => {
    for (const path of ['/9999/settings/topics', '/1001/nothing/here', '/1001/inbox/mention/2001/123', '/1001/inbox/mention/2999/9001']) {
      const r = await s.api('GET', path);
      expect(r.status, path).toBe(404);
      expect(r.body.error).toBe('not_found');
    }
  });

  it('answers 405 invalid_request for a method the path does not serve', async () => {
    const r = await s.api('DELETE', '/1001/settings/topics');
    expect(r.status).toBe(405);
    expect(r.body.error).toBe('invalid_request');
    expect(r.headers.get('allow')).toBe('GET');
  });

  it('rejects a JSON request body: parameters are form fields', async () => {
    const res = await fetch(`${s.url}/1001/inbox/mention/2001/9001`, {
      method: 'POST',
      headers: { authorization: 'Bearer sim-token', 'content-type': 'application/json' },
      body: '{"updates":{}}',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_parameter');
  });

  it('accepts POST parameters in the query string', async () => {
    const q = new URLSearchParams({ updates: JSON.stringify({ status: 'pending' }) });
    const res = await fetch(`${s.url}/1001/inbox/mention/2001/9001?${q}`, {
      method: 'POST',
      headers: { authorization: 'Bearer sim-token' },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { response: { status: string } }).response.status).toBe('pending');
  });

  it('answers 400 invalid_parameter for JSON fields that do not parse and for a bad version', async () => {
    const bad = await s.api('POST', '/1001/inbox/mention/2001/9001', { updates: '{tags:' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'invalid_parameter', error_description: expect.stringContaining('updates') });
    const v = await s.api('GET', '/1001/settings/topics', { version: 'yesterday' });
    expect(v.status).toBe(400);
  });

  it('renders XML when format=xml', async () => {
    const r = await s.api('GET', '/1001/settings/topics', { format: 'xml' });
    expect(r.headers.get('content-type')).toContain('application/xml');
    expect(r.text).toContain('<name>Support</name>');
  });
});

describe('rate limiting', () => {
  it('counts per user: tokens of one user share one allocation, other users are independent', async () => {
    await s.control('POST', '/_sim/tokens', { token: 'u2-a', user_id: 'u2', scopes: ['accounts_read'] });
    await s.control('POST', '/_sim/tokens', { token: 'u2-b', user_id: 'u2', scopes: ['accounts_read'] });
    await s.control('POST', '/_sim/rate-limit', { user_id: 'u2', limit: 3, window_seconds: 3600 });
    const first = await s.api('GET', '/1001/settings/topics', {}, { token: 'u2-a' });
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
    await s.api('GET', '/1001/settings/topics', {}, { token: 'u2-b' });
    await s.api('GET', '/1001/settings/topics', {}, { token: 'u2-a' });
    const limited = await s.api('GET', '/1001/settings/topics', {}, { token: 'u2-b' });
    expect(limited.status).toBe(400);
    expect(limited.body.error).toBe('rate_limit_reached');
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await s.api('GET', '/1001/settings/topics')).status).toBe(200);
  });

  it('opens a new window once the old one has passed', async () => {
    let now = 1_700_000_000_000;
    const own = await startSim({ clock: () => now });
    try {
      await own.control('POST', '/_sim/rate-limit', { user_id: 'u1', limit: 1, window_seconds: 60 });
      expect((await own.api('GET', '/1001/settings/topics')).status).toBe(200);
      expect((await own.api('GET', '/1001/settings/topics')).status).toBe(400);
      now += 61_000;
      expect((await own.api('GET', '/1001/settings/topics')).status).toBe(200);
    } finally {
      await own.close();
    }
  });
});
