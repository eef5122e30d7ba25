import { describe, it, expect } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngageClient } from '../../src/engage/index.js';

describe('closing the client', () => {
  it('returns even when a server holds a request and never answers', async () => {
    let arrived!: () => void;
    const held = new Promise<void>((r) => (arrived = r));
    const server = createServer(() => arrived()); // never answers
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const client = createEngageClient({
      baseUrl: `http://127.0.0.1:${port}`,
      accountId: '1001',
      accessToken: 'tok-close-test',
      retry: { maxAttempts: 1 },
      timeouts: { requestMs: 120_000 },
    });
    const pending = client.topics.list().then(
      () => 'answered',
      () => 'dropped',
    );
    await held;
    await client.close(); // without the grace period this waits for the held request (the test would time out)
    const outcome = await pending;
    expect(outcome).toBe('dropped');
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }, 15_000);
});
