import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStoreError } from '../../src/storage/index.js';
import { BASE_SCHEMA_VERSION, SCHEMA_STEPS, migrateSchema, openPostgresStore } from '../../src/storage/postgres/open-postgres-store.js';
import { startTcpProxy } from '../support/tcp-proxy.js';
import { waitFor } from '../support/wait-for.js';
import { startTestPostgres } from './postgres-server.js';
import type { TestPostgres } from './postgres-server.js';
import { T0, conversation, mention } from './store-contract.js';

describe('the PostgreSQL store', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startTestPostgres();
  }, 120_000);
  afterAll(async () => {
    await server.stop();
  }, 60_000);

  it('keeps its state across a close and a reopen, migrating the schema once', async () => {
    const databaseUrl = await server.createDatabase();
    const first = await openPostgresStore({ databaseUrl, writeIntervalMs: 0 });
    await first.recordInbound(mention('9001'));
    await first.close();
    const second = await openPostgresStore({ databaseUrl, writeIntervalMs: 0 });
    expect(await second.hasSeen('2001', '9001')).toBe(true);
    expect((await second.pendingInbound()).map((m) => m.id)).toEqual(['9001']);
    await second.close();
  });

  it('applies only the base schema before the lease, and later steps once it holds the lease; refuses a newer database', async () => {
    const databaseUrl = await server.createDatabase();
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    const client = await pool.connect();
    try {
      const later = SCHEMA_STEPS.length + 1;
      const steps = [...SCHEMA_STEPS, { version: later, sql: 'CREATE TABLE bridge_later_step (id int)' }];
      expect(await migrateSchema(client, { upTo: BASE_SCHEMA_VERSION, steps })).toEqual([1]);
      expect((await client.query("SELECT to_regclass('bridge_later_step') AS t")).rows[0].t).toBeNull();
      expect(await migrateSchema(client, { steps })).toEqual(steps.slice(1).map((step) => step.version));
      // An engage-bridge that knows fewer steps refuses a newer database, even for the base.
      await expect(migrateSchema(client, { upTo: BASE_SCHEMA_VERSION })).rejects.toThrow(/upgrade engage-bridge/);
    } finally {
      client.release();
      await pool.end();
    }
  });

  it('migrates a v1 state to topic keys at open, moving its core row into the tables of each kind (#11.10)', async () => {
    const databaseUrl = await server.createDatabase();
    const first = await openPostgresStore({ databaseUrl, writeIntervalMs: 0 });
    await first.close();
    // As a v1 engage-bridge left it: the core row of schema version 1 (meta and inbox), bare seen ids.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const meta = { createdAt: T0, values: {}, nextEscalationSeq: 1, nextEffectSeq: 1 };
      const core = { schemaVersion: 1, meta, inbox: [mention('9001', { topicId: '2002' })], cursors: {}, escalations: {} };
      await client.query('INSERT INTO bridge_core (id, body) VALUES (1, $1)', [JSON.stringify(core)]);
      await client.query("INSERT INTO bridge_seen (ref, at) VALUES ('9001', $1), ('9005', $1)", [T0]);
    } finally {
      await client.end();
    }
    const second = await openPostgresStore({ databaseUrl, writeIntervalMs: 0 });
    expect(await second.hasSeen('2002', '9001')).toBe(true);
    expect(await second.hasSeen('2001', '9001')).toBe(false);
    expect(await second.hasSeen('2003', '9005')).toBe(true);
    expect((await second.pendingInbound()).map((m) => `${m.topicId}/${m.id}`)).toEqual(['2002/9001']);
    expect((await second.getMeta()).createdAt).toBe(T0);
    await second.close();
    const check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();
    try {
      expect((await check.query('SELECT count(*)::int AS n FROM bridge_core')).rows).toEqual([{ n: 0 }]);
      const seen = ((await check.query('SELECT ref FROM bridge_seen')).rows as Array<{ ref: string }>).map((r) => r.ref).sort();
      expect(seen).toEqual(['*/9005', '2002/9001']);
    } finally {
      await check.end();
    }
  });

  it('migrates version-1 shard rows to rows per key at open and deletes the shard rows', async () => {
    const databaseUrl = await server.createDatabase();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const base = new pg.Pool({ connectionString: databaseUrl, max: 1 });
      const pooled = await base.connect();
      await migrateSchema(pooled, { upTo: BASE_SCHEMA_VERSION });
      pooled.release();
      await base.end();
      const meta = { createdAt: T0, values: {}, nextEscalationSeq: 1, nextEffectSeq: 2 };
      const core = { schemaVersion: 2, meta, inbox: [], cursors: {}, escalations: {}, journalSeq: 0 };
      const effect = { key: 'k1', kind: 'reply', contactKey: 'whatsapp:svc-1', payload: {}, seq: 1, status: 'pending', attempts: 0 };
      await client.query('INSERT INTO bridge_core (id, body) VALUES (1, $1)', [JSON.stringify(core)]);
      const shard = 'INSERT INTO bridge_shards (tbl, idx, body) VALUES ($1, $2, $3)';
      await client.query(shard, ['conversations', 3, `${JSON.stringify(conversation('svc-1'))}\n`]);
      await client.query(shard, ['seen', 0, `${JSON.stringify(['2001/1', T0])}\n`]);
      await client.query(shard, ['outbox', 0, `${JSON.stringify({ ...effect, createdAt: T0, updatedAt: T0 })}\n`]);
    } finally {
      await client.end();
    }
    const store = await openPostgresStore({ databaseUrl, writeIntervalMs: 0 });
    try {
      expect(await store.getConversation('whatsapp:svc-1')).toEqual(conversation('svc-1'));
      expect(await store.hasSeen('2001', '1')).toBe(true);
      expect((await store.pendingEffects()).map((e) => e.key)).toEqual(['k1']);
    } finally {
      await store.close();
    }
    const check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();
    try {
      expect((await check.query('SELECT count(*)::int AS n FROM bridge_shards')).rows).toEqual([{ n: 0 }]);
      expect((await check.query('SELECT key, owner FROM bridge_conversations')).rows).toEqual([{ key: 'whatsapp:svc-1', owner: 'bot' }]);
      expect((await check.query('SELECT ref FROM bridge_seen')).rows).toEqual([{ ref: '2001/1' }]);
    } finally {
      await check.end();
    }
  });

  it('lets one instance hold the lease and refuses a second while it lives', async () => {
    const databaseUrl = await server.createDatabase();
    const active = await openPostgresStore({ databaseUrl, instanceName: 'a', leaseTtlMs: 60_000 });
    const refusal = await openPostgresStore({ databaseUrl, instanceName: 'b', leaseTtlMs: 60_000 }).catch((error: unknown) => error);
    expect(isStoreError(refusal) && refusal.code).toBe('locked');
    await active.close();
    // A graceful close gives the lease up: the standby takes it at once.
    const next = await openPostgresStore({ databaseUrl, instanceName: 'b', leaseTtlMs: 60_000 });
    await next.close();
  });

  it('refuses in the database every write of an instance whose lease was taken over', async () => {
    const databaseUrl = await server.createDatabase();
    // A lease that expires at once: the process stays up but stops renewing in time, as after a network cut.
    const deposed = await openPostgresStore({ databaseUrl, instanceName: 'a', leaseTtlMs: 1, writeIntervalMs: 0 });
    const successor = await openPostgresStore({ databaseUrl, instanceName: 'b', leaseTtlMs: 60_000, writeIntervalMs: 0 });
    const write = await deposed
      .recordInbound(mention('7001'))
      .then(() => deposed.flush())
      .catch((error: unknown) => error);
    expect(isStoreError(write) && write.code).toBe('locked');
    await successor.recordInbound(mention('7002'));
    await successor.flush();
    await successor.close();
    await deposed.close().catch(() => {});
    const reader = await openPostgresStore({ databaseUrl, instanceName: 'c' });
    expect(await reader.hasSeen('2001', '7001')).toBe(false);
    expect(await reader.hasSeen('2001', '7002')).toBe(true);
    await reader.close();
  });

  it('refuses in the database the writes of an instance that has not yet noticed its lease was taken over', async () => {
    const databaseUrl = await server.createDatabase();
    const deposed = await openPostgresStore({ databaseUrl, instanceName: 'a', leaseTtlMs: 60_000, writeIntervalMs: 0 });
    // Another instance took the lease (it had lapsed) before this one's next renewal: only the database knows.
    const sql = new pg.Client({ connectionString: databaseUrl });
    await sql.connect();
    await sql.query("UPDATE bridge_lease SET holder = 'b', token = token + 1, expires_at = now() + interval '60 seconds'");
    await sql.end();
    const write = await deposed
      .recordInbound(mention('7101'))
      .then(() => deposed.flush())
      .catch((error: unknown) => error);
    expect(isStoreError(write) && write.code).toBe('locked');
    await deposed.close().catch(() => {});
    const check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();
    const { rows } = await check.query<{ holder: string }>('SELECT holder FROM bridge_lease WHERE id = 1');
    await check.end();
    expect(rows[0]?.holder).toBe('b');
  });

  it('steps down when the database stops answering, before the lease expires, and a standby takes over', async () => {
    const databaseUrl = await server.createDatabase();
    const url = new URL(databaseUrl);
    const proxy = await startTcpProxy(Number(url.port));
    try {
      const viaProxy = new URL(databaseUrl);
      viaProxy.port = String(proxy.port);
      const lost: string[] = [];
      const cutOff = await openPostgresStore({
        databaseUrl: viaProxy.toString(),
        instanceName: 'a',
        leaseTtlMs: 1000,
        writeIntervalMs: 0,
        lease: { onLost: (why) => lost.push(why) },
      });
      const successor = openPostgresStore({ databaseUrl, instanceName: 'b', leaseTtlMs: 1000, writeIntervalMs: 0, standby: {} });
      proxy.cut();
      await waitFor('the cut-off instance stepping down', () => lost.length > 0);
      expect(lost).toEqual(['expired']);
      const write = await cutOff
        .recordInbound(mention('7201'))
        .then(() => cutOff.flush())
        .catch((error: unknown) => error);
      expect(isStoreError(write) && write.code).toBe('locked');
      const next = await successor;
      await next.recordInbound(mention('7202'));
      await next.flush();
      expect(await next.hasSeen('2001', '7202')).toBe(true);
      proxy.heal();
      await cutOff.close().catch(() => {});
      await next.close();
    } finally {
      await proxy.close();
    }
  });

  it('keeps a standby waiting while the lease is held, and has it take over and pick up pending work once the holder dies', async () => {
    const databaseUrl = await server.createDatabase();
    const before = await openPostgresStore({ databaseUrl, instanceName: 'a', writeIntervalMs: 0 });
    await before.recordInbound(mention('8001'));
    await before.close();
    // An active instance killed with -9 (or cut off from the database): it holds the lease and renews no more.
    const sql = new pg.Client({ connectionString: databaseUrl });
    await sql.connect();
    await sql.query("UPDATE bridge_lease SET holder = 'killed', token = token + 1, expires_at = now() + interval '2 seconds'");
    await sql.end();
    let waiting = false;
    const successor = await openPostgresStore({
      databaseUrl,
      instanceName: 'b',
      leaseTtlMs: 1000,
      writeIntervalMs: 0,
      standby: { onStandby: () => (waiting = true) },
    });
    expect(waiting).toBe(true);
    expect((await successor.pendingInbound()).map((m) => m.id)).toEqual(['8001']);
    await successor.markInboundProcessed('2001', '8001');
    await successor.flush();
    await successor.close();
  }, 60_000);

  it('gives up waiting as a standby when told to stop', async () => {
    const databaseUrl = await server.createDatabase();
    const active = await openPostgresStore({ databaseUrl, instanceName: 'a', leaseTtlMs: 60_000 });
    const stop = new AbortController();
    const standby = openPostgresStore({ databaseUrl, instanceName: 'b', standby: { signal: stop.signal, onStandby: () => stop.abort() } });
    const outcome = await standby.catch((error: unknown) => error);
    expect(isStoreError(outcome) && outcome.code).toBe('closed');
    await active.close();
  });
});
