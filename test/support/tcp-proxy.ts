import { connect, createServer, type Socket } from 'node:net';

/** A TCP proxy on 127.0.0.1 (port 0) in front of a local port, whose link a test can cut like a network. */
export interface TcpProxy {
  readonly port: number;
  /**
   * From now on nothing passes, either way, on open connections or new ones: packets vanish as in a network cut
   * (no reset, so the client only learns of it by its own timeouts).
   */
  cut(): void;
  /** Lets traffic through again, for new connections; the old ones are reset (their streams lost bytes). */
  heal(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let isCut = false;
  const track = (s: Socket): void => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
  };
  const server = createServer((client) => {
    track(client);
    if (isCut) return; // accepted, then silence
    const upstream = connect(targetPort, '127.0.0.1');
    track(upstream);
    const relay = (from: Socket, to: Socket): void => {
      from.on('data', (chunk: Buffer) => {
        if (!isCut && !to.destroyed) to.write(chunk);
      });
      from.on('end', () => {
        if (!isCut) to.end();
      });
    };
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    cut() {
      isCut = true;
    },
    heal() {
      for (const s of sockets) s.destroy();
      isCut = false;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
