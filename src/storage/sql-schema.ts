/**
 * The one SQL schema of the SQLite and PostgreSQL stores: versioned steps, applied in order, each once. The
 * dialects differ only in the words below, kept here so the steps are written once.
 */
export type SqlDialect = 'sqlite' | 'postgres';

interface DialectWords {
  /** An auto-numbered 64-bit primary key column. */
  serialKey: string;
}

const WORDS: Record<SqlDialect, DialectWords> = {
  // SQLite numbers only an `INTEGER PRIMARY KEY` (the rowid, 64-bit) by itself.
  sqlite: { serialKey: 'INTEGER PRIMARY KEY' },
  postgres: { serialKey: 'bigserial PRIMARY KEY' },
};

export interface SchemaStep {
  version: number;
  sql: string;
}

type StepText = (w: DialectWords) => string;

const STEPS: ReadonlyArray<{ version: number; sql: StepText }> = [
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
];

/** The steps in `dialect`'s words. */
export function schemaSteps(dialect: SqlDialect): SchemaStep[] {
  return STEPS.map((step) => ({ version: step.version, sql: step.sql(WORDS[dialect]) }));
}

/** The table of applied versions, the same in both dialects. */
export const SCHEMA_TABLE_SQL =
  'CREATE TABLE IF NOT EXISTS bridge_schema (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT CURRENT_TIMESTAMP)';

/** The refusal of a database newer than this engage-bridge, the same in both dialects. */
export function newerSchemaMessage(newest: number, known: number): string {
  return `the database schema is version ${newest}; this engage-bridge knows up to ${known}: upgrade engage-bridge`;
}
