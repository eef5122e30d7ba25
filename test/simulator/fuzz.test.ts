import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from './sim-helpers.js';

let s: TestSim;
beforeAll(async () => {
  s = await startSim();
  for (const channel of ['whatsapp', 'web', 'instagram', 'twilio']) await s.inbound(channel, 'c1', 'hello there');
});
afterAll(() => s.close());

const PATHS = [
  '/1001/inbox/mentions',
  '/1001/inbox/mention/2001/{id}',
  '/1001/inbox/contact/{id}',
  '/1001/inbox/contact/{svc}/{id}',
  '/1001/inbox/contacts',
  '/1001/inbox/handover/{svc}/{id}',
  '/1001/publisher/add',
  '/1001/publisher/media/add',
  '/1001/publisher/mention/{id}',
  '/1001/publisher/mentions',
  '/1001/settings/user/{id}',
  '/1001/settings/businesshoursschedules',
  '/1001/settings/businesshoursschedule/{id}',
  '/1001/settings/profilegroups',
  '/1001/settings/topics',
  '/1001/settings/tags',
  '/1001/settings/canned_responses',
  '/me/accounts',
  '/tools/sentiment',
  '/{id}/settings/topics',
  '/{id}',
  '/{id}/{id}/{id}',
  '//evil.example/x',
  '/1001/inbox/mention/%E0%A4%A/9001',
  '/_sim/../1001/settings/topics',
];
const IDS = ['9001', '9002', '7001', '8001', '301', '401', 'u1', 'u2', '1001', '0', '-1', 'abc', '%00', '..', 'x'.repeat(300)];
const SERVICES = ['whatsapp', 'web', 'viber', 'twilio', 'instagram', 'facebook', 'nope'];
const NAMES = [
  'updates',
  'options',
  'limit',
  'page_token',
  'filter',
  'topic_ids',
  'version',
  'sort',
  'date_from',
  'date_to',
  'type',
  'services',
  'message',
  'status',
  'mention_id',
  'topic_id',
  'canned_response_id',
  'business_hours_schedule',
  'profile_group',
  'list_filter',
  'entities',
  'fields',
  'string',
  'to',
  'media',
  'url',
  'data',
  'filename',
  'subject',
  'date_publish',
  'access_token',
  '__proto__',
  'constructor',
  'x',
];

const jsonish = fc.oneof(
  fc.json(),
  fc.string(),
  fc.constantFrom(
    '{',
    '[]',
    '{}',
    'null',
    '{"tags":["a"]}',
    '{"status":"done"}',
    '{"address":{"country":{"name":"Belgum"}}}',
    '[{"type":"whatsapp","service_id":"1"}]',
    '{"name":"x","timezone":"UTC","periods":[{"dayofweek":1,"start":"0900","end":"2400"}]}',
    'tag:a AND (status:new OR source:web)',
    '((',
    'dateadd:asc',
    '20210601',
    '99999999',
    '101',
    '-5',
    'true',
  ),
);

const requestArb = fc.record({
  method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD'),
  template: fc.constantFrom(...PATHS),
  ids: fc.array(fc.constantFrom(...IDS), { minLength: 3, maxLength: 3 }),
  svc: fc.constantFrom(...SERVICES),
  params: fc.dictionary(fc.constantFrom(...NAMES), jsonish, { maxKeys: 5 }),
  inBody: fc.boolean(),
  contentType: fc.constantFrom('application/x-www-form-urlencoded', 'application/json', 'text/plain', 'multipart/form-data', ''),
  auth: fc.constantFrom('bearer', 'param', 'none', 'bad', 'Basic abc'),
  rawBody: fc.option(fc.string({ maxLength: 200 }), { freq: 4 }),
});

function checkAnswer(method: string, status: number, text: string): void {
  expect([200, 201, 400, 401, 403, 404, 405]).toContain(status);
  if (method === 'HEAD') return;
  const body = JSON.parse(text) as Record<string, unknown>;
  if (status === 200) {
    expect(body['meta']).toMatchObject({ code: 200 });
    expect(body).toHaveProperty('response');
  } else {
    expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
    expect(typeof body['error']).toBe('string');
    expect(typeof body['error_description']).toBe('string');
  }
}

describe('bad-request fuzz', () => {
  it('answers thousands of random API requests with well-formed 2xx/4xx JSON and stays up', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        let i = 0;
        const path = r.template.replace(/\{id\}/g, () => encodeURIComponent(r.ids[i++ % 3] ?? '')).replace('{svc}', r.svc);
        const params = new URLSearchParams();
        for (const [k, v] of Object.entries(r.params)) if (k !== 'format') params.set(k, v);
        if (r.auth === 'param') params.set('access_token', 'sim-token');
        const headers: Record<string, string> = {};
        if (r.auth === 'bearer') headers['authorization'] = 'Bearer sim-token';
        if (r.auth === 'bad') headers['authorization'] = 'Bearer wrong';
        if (r.auth === 'Basic abc') headers['authorization'] = 'Basic abc';
        if (r.contentType) headers['content-type'] = r.contentType;
        const hasBody = r.method !== 'GET' && r.method !== 'HEAD';
        const body = hasBody ? (r.rawBody ?? (r.inBody ? params.toString() : undefined)) : undefined;
        const query = !hasBody || !r.inBody ? params.toString() : '';
        const res = await fetch(`${s.url}${path}${query ? `?${query}` : ''}`, { method: r.method, headers, body });
        checkAnswer(r.method, res.status, await res.text());
      }),
      { numRuns: 2000, seed: 20260601 },
    );
    expect((await s.api('GET', '/1001/settings/topics')).status).toBe(200);
  });

  it('answers random control API requests with well-formed JSON', async () => {
    const routes = [
      '/_sim/inbound',
      '/_sim/agent/reply',
      '/_sim/agent/resolve',
      '/_sim/handover',
      '/_sim/clock',
      '/_sim/realism',
      '/_sim/outbound',
      '/_sim/requests',
      '/_sim/nothing',
      '/_sim',
    ];
    const bodyArb = fc.oneof(
      fc.json(),
      fc.record(
        {
          channel: fc.constantFrom(...SERVICES),
          author: fc.oneof(fc.record({ id: fc.string() }), fc.json()),
          text: fc.oneof(fc.string(), fc.integer()),
          clicked_button: fc.string(),
          service_id: fc.oneof(fc.string(), fc.integer()),
          owner: fc.constantFrom('agents', 'application', 'bot'),
          now: fc.oneof(fc.integer(), fc.string()),
          topic_id: fc.oneof(fc.integer(), fc.string()),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.constantFrom('GET', 'POST', 'PUT'),
        bodyArb,
        fc.string({ maxLength: 10 }),
        async (path, method, body, after) => {
          const url = `${s.url}${path}?after=${encodeURIComponent(after)}`;
          const res = await fetch(url, {
            method,
            ...(method === 'GET' ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
          });
          const text = await res.text();
          expect(res.status).toBeLessThan(500);
          const parsed = JSON.parse(text) as unknown;
          if (res.status >= 400) expect(Object.keys(parsed as object).sort()).toEqual(['error', 'error_description']);
        },
      ),
      { numRuns: 500, seed: 7 },
    );
    await s.control('POST', '/_sim/realism', { indexing_delay_ms: 0 });
  });

  it('answers a malformed HTTP request line with a 400 JSON body', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(s.url).port), '127.0.0.1', () => socket.write('BLAH /\x00 HTTP/9\r\n\r\n'));
      let data = '';
      socket.on('data', (c) => (data += c.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(reply.startsWith('HTTP/1.1 400')).toBe(true);
    expect(reply).toContain('"error":"invalid_request"');
    expect((await s.api('GET', '/1001/settings/topics')).status).toBe(200);
  });
});
