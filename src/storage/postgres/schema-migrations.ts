import type { PoolClient } from 'pg';

/**
 * Versioned schema steps, applied in order, each once. They run in one transaction under an advisory
 * lock, so two instances starting together never apply a step twice.
 */
export const SCHEMA_STEPS: ReadonlyArray<{ version: number; sql: string }> = [
  {
    version: 1,
    sql: `
      CREATE TABLE bridge_core (id int PRIMARY KEY CHECK (id = 1), body text NOT NULL);
      CREATE TABLE bridge_shards (tbl text NOT NULL, idx int NOT NULL, body text NOT NULL, PRIMARY KEY (tbl, idx));
      CREATE TABLE bridge_audit (seq bigserial PRIMARY KEY, body text NOT NULL);
      CREATE TABLE bridge_archive (seq bigserial PRIMARY KEY, key text NOT NULL, body text NOT NULL);
      CREATE INDEX bridge_archive_key ON bridge_archive (key, seq);
      CREATE TABLE bridge_lease (
        id int PRIMARY KEY CHECK (id = 1),
        holder text NOT NULL,
        token bigint NOT NULL,
        expires_at timestamptz NOT NULL
      );
      INSERT INTO bridge_lease (id, holder, token, expires_at) VALUES (1, '', 0, 'epoch');
    `,
  },
];

// Any constant works: it only has to be the same for every instance.
const MIGRATION_LOCK_KEY = 0x0b41d6e;

/** The first step: the tables every instance needs before it can even ask for the lease. */
export const BASE_SCHEMA_VERSION = 1;

/**
 * Applies the steps this database lacks, up to `upTo` (default: all); returns the versions applied. An instance
 * applies the base before it asks for the lease and the rest once it holds it, so a newer standby never changes
 * the schema under a running active instance. A database newer than every step known is refused either way.
 */
export async function migrateSchema(
  client: PoolClient,
  o: { upTo?: number; steps?: ReadonlyArray<{ version: number; sql: string }> } = {},
): Promise<number[]> {
  const steps = o.steps ?? SCHEMA_STEPS;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query('CREATE TABLE IF NOT EXISTS bridge_schema (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const { rows } = await client.query<{ version: number }>('SELECT version FROM bridge_schema');
    const have = new Set(rows.map((row) => row.version));
    const newest = Math.max(0, ...have);
    const known = Math.max(...steps.map((step) => step.version));
    if (newest > known) {
      throw new Error(`the database schema is version ${newest}; this engage-bridge knows up to ${known}: upgrade engage-bridge`);
    }
    const applied: number[] = [];
    for (const step of steps) {
      if (have.has(step.version) || step.version > (o.upTo ?? Number.POSITIVE_INFINITY)) continue;
      await client.query(step.sql);
      await client.query('INSERT INTO bridge_schema (version) VALUES ($1)', [step.version]);
      applied.push(step.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
