import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from './sim-helpers.js';

let s: TestSim | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const INBOUND = JSON.stringify({ channel: 'whatsapp', author: { id: '32470000099', name: 'Eve' }, text: 'hi' });

/** A raw request over a real socket, with exactly the headers given (Host included). */
function raw(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers, setHost: headers.host === undefined }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the simulator control API refuses what a web page could send', () => {
  it('takes a JSON write from this machine, its own Host and Origin included', async () => {
    s = await startSim();
    const port = new URL(s.url).port;
    const json = { 'content-type': 'application/json' };
    expect((await raw(s.url, 'POST', '/_sim/inbound', json, INBOUND)).status).toBe(201);
    expect(
      (await raw(s.url, 'POST', '/_sim/inbound', { ...json, host: `localhost:${port}`, origin: `http://localhost:${port}` }, INBOUND))
        .status,
    ).toBe(201);
    expect((await raw(s.url, 'GET', '/_sim/outbound?after=0', { 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect(s.sim.state.mentions.size).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['a foreign Origin', { 'content-type': 'application/json', origin: 'https://evil.example' }, 403],
    ['the Origin of another local port', { 'content-type': 'application/json', origin: 'http://127.0.0.1:1' }, 403],
    ['Sec-Fetch-Site: cross-site', { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }, 403],
    ['a text/plain body (a form a page may post without asking)', { 'content-type': 'text/plain' }, 415],
    ['a form body', { 'content-type': 'application/x-www-form-urlencoded' }, 415],
    ['no Content-Type', {}, 415],
    ['a foreign Host (DNS rebinding)', { 'content-type': 'application/json', host: 'evil.example:4010' }, 421],
    ['localhost on another port', { 'content-type': 'application/json', host: 'localhost:1' }, 421],
  ])('refuses a write with %s and changes nothing', async (_what, headers, status) => {
    s = await startSim();
    const before = s.sim.state.mentions.size;
    const answer = await raw(s.url, 'POST', '/_sim/inbound', headers as Record<string, string>, INBOUND);
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.text)).toHaveProperty('error_description');
    expect(s.sim.state.mentions.size).toBe(before);
  });

  it('refuses a read from another origin or for a foreign Host', async () => {
    s = await startSim();
    expect((await raw(s.url, 'GET', '/_sim/outbound?after=0', { origin: 'https://evil.example' })).status).toBe(403);
    expect((await raw(s.url, 'GET', '/_sim/outbound?after=0', { host: 'evil.example' })).status).toBe(421);
  });
});
