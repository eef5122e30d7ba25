import { StoreError } from './store-error.js';

/**
 * The one SQL schema of the SQLite and PostgreSQL stores: versioned steps, applied in order, each once. The
 * dialects differ only in the words below, kept here so the steps are written once.
 */
export type SqlDialect = 'sqlite' | 'postgres';

interface DialectWords {
  /** An auto-numbered 64-bit primary key column. */
  serialKey: string;
  /** A date in epoch milliseconds (a record's dates are plain numbers, not always whole). */
  date: string;
}

const WORDS: Record<SqlDialect, DialectWords> = {
  // SQLite numbers only an `INTEGER PRIMARY KEY` (the rowid, 64-bit) by itself.
  sqlite: { serialKey: 'INTEGER PRIMARY KEY', date: 'real' },
  postgres: { serialKey: 'bigserial PRIMARY KEY', date: 'double precision' },
};

export type SchemaStep = { version: number; sql: string };

const STEPS: ReadonlyArray<{ version: number; sql: (w: DialectWords) => string }> = [
  {
    version: 1,
    sql: (w) => `
      CREATE TABLE bridge_core (id int PRIMARY KEY CHECK (id = 1), body text NOT NULL);
      CREATE TABLE bridge_shards (tbl text NOT NULL, idx int NOT NULL, body text NOT NULL, PRIMARY KEY (tbl, idx));
      CREATE TABLE bridge_audit (seq ${w.serialKey}, body text NOT NULL);
      CREATE TABLE bridge_archive (seq ${w.serialKey}, key text NOT NULL, body text NOT NULL);
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
  {
    // A row per key; a conversation's transcript lines are rows of bridge_transcript (sql-store/conversation-rows.ts).
    version: 2,
    sql: (w) => `
      CREATE TABLE bridge_conversations (
        key text PRIMARY KEY,
        owner text,
        updated_at ${w.date},
        archived_at ${w.date},
        body text
      );
      -- What the open reads of every conversation, in an index of its own: the scan never touches the bodies' pages.
      CREATE INDEX bridge_conversations_slots ON bridge_conversations (key, owner, updated_at, archived_at);
      CREATE TABLE bridge_transcript (
        key text NOT NULL,
        seq int NOT NULL,
        at ${w.date} NOT NULL,
        body text NOT NULL,
        PRIMARY KEY (key, seq)
      );
      CREATE INDEX bridge_transcript_at ON bridge_transcript (at);
      CREATE TABLE bridge_seen (ref text PRIMARY KEY, at ${w.date} NOT NULL);
      CREATE TABLE bridge_outbox (key text PRIMARY KEY, body text NOT NULL);
    `,
  },
  {
    // Each kind its table (README.md); an effect's status fields are columns, the pending ones indexed; the rows
    // steps 1 and 2 kept are moved here at the next open (sql-store/legacy-rows.ts).
    version: 3,
    sql: (w) => `
      CREATE TABLE bridge_meta (id int PRIMARY KEY CHECK (id = 1), body text NOT NULL);
      CREATE TABLE bridge_cursors (topic text PRIMARY KEY, body text NOT NULL);
      CREATE TABLE bridge_mentions (ref text PRIMARY KEY, key text NOT NULL, body text NOT NULL);
      CREATE INDEX bridge_mentions_key ON bridge_mentions (key);
      CREATE TABLE bridge_effects (
        key text PRIMARY KEY,
        contact_key text NOT NULL,
        kind text NOT NULL,
        seq bigint NOT NULL,
        status text NOT NULL,
        attempts int NOT NULL,
        created_at ${w.date} NOT NULL,
        updated_at ${w.date} NOT NULL,
        retry_at ${w.date},
        last_error text,
        payload text NOT NULL,
        result text
      );
      CREATE INDEX bridge_effects_pending ON bridge_effects (seq) WHERE status = 'pending';
      CREATE INDEX bridge_effects_pending_contact ON bridge_effects (contact_key, seq) WHERE status = 'pending';
      CREATE TABLE bridge_escalation_rows (
        id text PRIMARY KEY,
        num bigint NOT NULL,
        contact_key text NOT NULL,
        status text NOT NULL,
        updated_at ${w.date} NOT NULL,
        body text NOT NULL
      );
      -- The dialog state, written only when it changed (a conversation's row written before keeps it in body).
      ALTER TABLE bridge_conversations ADD COLUMN dialog text;
      DROP INDEX bridge_conversations_slots;
      CREATE INDEX bridge_conversations_owner ON bridge_conversations (owner, updated_at);
    `,
  },
  {
    // Every index an effect's row is in is a page its commit writes. The pending effects of all contacts (read at
    // start and when the token recovers) are found through the pending ones by contact as well: scanned whole and
    // sorted (it holds only the pending ones), so the index of the pending ones by seq alone goes.
    version: 4,
    sql: () => 'DROP INDEX bridge_effects_pending;',
  },
];

/** The steps in `dialect`'s words. */
export function schemaSteps(dialect: SqlDialect): SchemaStep[] {
  return STEPS.map((step) => ({ version: step.version, sql: step.sql(WORDS[dialect]) }));
}

/** The table of applied versions, the same in both dialects. */
export const SCHEMA_TABLE_SQL =
  'CREATE TABLE IF NOT EXISTS bridge_schema (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT CURRENT_TIMESTAMP)';

/** Runs SQL (a step may hold several statements) on the connection being migrated; resolves with a query's rows. */
export type SchemaQuery = (sql: string) => Promise<Array<Record<string, unknown>>>;

// PostgreSQL: instances starting together take turns. Any constant works: it only has to be the same for every instance.
const MIGRATION_LOCK_KEY = 0x0b41d6e;

/**
 * Applies the steps this database lacks, up to `upTo`, in one transaction; returns the versions applied. A
 * database newer than every step known is refused (`schema`) and left as it is.
 */
export async function applySchema(
  query: SchemaQuery,
  dialect: SqlDialect,
  upTo = Number.POSITIVE_INFINITY,
  steps = schemaSteps(dialect),
): Promise<number[]> {
  await query(dialect === 'sqlite' ? 'BEGIN IMMEDIATE' : 'BEGIN');
  try {
    if (dialect === 'postgres') await query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await query(SCHEMA_TABLE_SQL);
    const have = new Set((await query('SELECT version FROM bridge_schema')).map((row) => Number(row.version)));
    const newest = Math.max(0, ...have);
    const known = Math.max(...steps.map((step) => step.version));
    if (newest > known) {
      throw new StoreError(
        'schema',
        `The database schema is version ${newest}; this engage-bridge knows up to ${known}: upgrade engage-bridge.`,
      );
    }
    const applied: number[] = [];
    for (const step of steps) {
      if (have.has(step.version) || step.version > upTo) continue;
      await query(step.sql);
      await query(`INSERT INTO bridge_schema (version) VALUES (${step.version})`);
      applied.push(step.version);
    }
    await query('COMMIT');
    return applied;
  } catch (error) {
    await query('ROLLBACK').catch(() => {});
    throw error;
  }
}
