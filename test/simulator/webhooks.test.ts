import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim } from './sim-helpers.js';

describe('webhook push', () => {
  let receiver: Server;
  let received: unknown[][] = [];
  let failuresLeft = 0;
  let target = '';
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          res.writeHead(500).end();
          return;
        }
        received.push(JSON.parse(body) as unknown[]);
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

  it('posts each new inbound mention as a JSON array, retrying failures, and {} clears the target', async () => {
    const own = await startSim({ sleep: async () => undefined });
    try {
      received = [];
      failuresLeft = 2;
      expect((await own.control('POST', '/_sim/webhooks', { url: target })).status).toBe(200);
      const m = await own.inbound('whatsapp', '3247021', 'push me');
      await own.sim.webhooks.idle();
      expect(received).toEqual([[expect.objectContaining({ id: m['id'], author: expect.objectContaining({ managed: false }) })]]);
      expect((await own.control('GET', '/_sim/webhooks')).body).toMatchObject({ url: target, delivered: 1, failed: 0 });
      await own.control('POST', '/_sim/webhooks', {});
      await own.inbound('whatsapp', '3247021', 'not pushed');
      await own.sim.webhooks.idle();
      expect(received).toHaveLength(1);
      expect((await own.control('POST', '/_sim/webhooks', { url: 'ftp://x' })).status).toBe(400);
    } finally {
      await own.close();
    }
  });

  it('gives up on an unreachable target without crashing', async () => {
    const own = await startSim({ sleep: async () => undefined });
    try {
      await own.control('POST', '/_sim/webhooks', { url: 'http://127.0.0.1:1/none' });
      await own.inbound('whatsapp', '3247022', 'lost');
      await own.sim.webhooks.idle();
      expect((await own.control('GET', '/_sim/webhooks')).body).toMatchObject({ delivered: 0, failed: 1 });
      expect((await own.api('GET', '/1001/settings/topics')).status).toBe(200);
    } finally {
      await own.close();
    }
  });
});
