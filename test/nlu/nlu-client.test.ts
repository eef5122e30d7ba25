import { afterEach, describe, expect, it } from 'vitest';
import { createNluClient, parseEndpoint } from '../../src/nlu/index.js';
import { startFakeNlu, type FakeNlu } from './fake-nlu-server.js';

let server: FakeNlu | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

// A generous budget unless a test is about the budget: the machine may be busy.
function client(url: string, now: () => number = () => 0, timeoutMs = 5_000) {
  const events: string[] = [];
  const c = createNluClient({
    url,
    timeoutMs,
    breakerFailures: 3,
    breakerOpenMs: 30_000,
    now,
    onFailure: (why) => events.push(`fail: ${why}`),
    onBreaker: (s) => events.push(s),
  });
  return { c, events };
}

describe('the NLU client', () => {
  it('reads intent, confidence and entities from a Rasa parse answer', async () => {
    server = await startFakeNlu([
      { word: 'cash', intent: 'request_refund', confidence: 0.92, entities: [{ entity: 'amount', value: '20' }] },
    ]);
    const { c } = client(server.url);
    expect(await c.parse('I want my cash back')).toEqual({
      intent: 'request_refund',
      confidence: 0.92,
      entities: [{ entity: 'amount', value: '20' }],
    });
    expect(server.asked).toEqual(['I want my cash back']);
  });

  it('gives no answer for a server error, nonsense, or a server slower than the budget', async () => {
    server = await startFakeNlu();
    const { c, events } = client(server.url);
    server.behaviour = 'error';
    expect(await c.parse('hi')).toBeUndefined();
    server.behaviour = 'nonsense';
    expect(await c.parse('hi')).toBeUndefined();
    expect(events).toEqual(['fail: HTTP 500', 'fail: the answer is not a Rasa parse result']);
    server.behaviour = 'hang';
    const slow = client(server.url, () => 0, 100);
    expect(await slow.c.parse('hi')).toBeUndefined();
    expect(slow.events).toEqual(['fail: no answer within 100 ms']);
  });

  it('stops asking after repeated failures and tries again once the breaker period is over', async () => {
    server = await startFakeNlu([{ word: 'hours', intent: 'ask_opening_hours', confidence: 0.9 }]);
    let now = 0;
    const { c, events } = client(server.url, () => now);
    server.behaviour = 'error';
    for (let i = 0; i < 3; i++) await c.parse('hours?');
    expect(server.asked).toHaveLength(3);
    server.behaviour = 'answer';
    expect(await c.parse('hours?')).toBeUndefined();
    expect(server.asked).toHaveLength(3);
    now = 30_001;
    expect((await c.parse('hours?'))?.intent).toBe('ask_opening_hours');
    expect(events.slice(-2)).toEqual(['open', 'closed']);
  });

  it('gives no answer when nothing listens, and accepts the address with or without the path', async () => {
    server = await startFakeNlu();
    const url = server.url;
    await server.stop();
    server = undefined;
    expect(await client(url).c.parse('hi')).toBeUndefined();
    expect(parseEndpoint('http://127.0.0.1:5005')).toBe('http://127.0.0.1:5005/model/parse');
    expect(parseEndpoint('http://127.0.0.1:5005/model/parse')).toBe('http://127.0.0.1:5005/model/parse');
  });
});

describe('the NLU client against a hostile server', () => {
  it('follows no redirect and reads no answer over the size cap', async () => {
    const { createServer } = await import('node:http');
    const hits: string[] = [];
    const raw = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/model/parse') {
        res.writeHead(307, { location: '/elsewhere/model/parse' });
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ intent: { name: 'x', confidence: 1 }, text: 'y'.repeat(400_000) }));
    });
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (raw.address() as { port: number }).port;
      const redirected = client(`http://127.0.0.1:${port}`);
      expect(await redirected.c.parse('hello')).toBeUndefined();
      expect(hits).toEqual(['/model/parse']);
      const big = client(`http://127.0.0.1:${port}/elsewhere`);
      expect(await big.c.parse('hello')).toBeUndefined();
      expect(big.events[0]).toMatch(/over 262144 bytes/);
    } finally {
      raw.closeAllConnections();
      await new Promise<void>((r) => raw.close(() => r()));
    }
  });
});
