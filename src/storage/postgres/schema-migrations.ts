import type { PoolClient } from 'pg';
import { SCHEMA_TABLE_SQL, newerSchemaMessage, schemaSteps } from '../sql-schema.js';

/** The shared schema's steps in PostgreSQL's words (`../sql-schema.ts`). */
export const SCHEMA_STEPS: ReadonlyArray<{ version: number; sql: string }> = schemaSteps('postgres');

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
    await client.query(SCHEMA_TABLE_SQL);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM bridge_schema');
    const have = new Set(rows.map((row) => row.version));
    const newest = Math.max(0, ...have);
    const known = Math.max(...steps.map((step) => step.version));
    if (newest > known) {
      throw new Error(newerSchemaMessage(newest, known));
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
