import { StoreError } from './store-error.js';

/** What the store may log: pino's `(fields, message)` signature, so a pino child logger fits as is. */
export interface StoreLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface RetentionSettings {
  /** How long an inbound mention id is remembered (and a finished effect kept) after it was first seen. */
  seenIdsDays: number;
  /** How long audit entries and closed escalations are kept. */
  auditDays: number;
  /** A conversation untouched this long leaves the live rows for the archive. */
  archiveAfterDays: number;
  /** Transcript lines older than this are removed from the conversations in the hot set (`applyRetention`). */
  transcriptDays: number;
  /** An archived conversation is deleted this long after it was archived, every copy of it (`applyRetention`). */
  archiveDays: number;
  /** Customers' survey answers (audit entries `survey answer`) are kept this long, whatever `auditDays` says. */
  surveyDays: number;
}

export interface StoreOptions {
  /** Epoch milliseconds; defaults to `Date.now`. */
  clock?: () => number;
  logger?: StoreLogger;
  /** Transcript window kept per conversation (default 50 lines). */
  transcriptMaxLines?: number;
  /** Longer transcript lines are cut to this many characters (default 2000). */
  transcriptMaxLineChars?: number;
  retention?: Partial<RetentionSettings>;
  /** Minimum spacing of group commits (file store default 0: callers arriving during a write share the next one). */
  writeIntervalMs?: number;
}

export type ResolvedStoreOptions = Required<Omit<StoreOptions, 'retention'>> & { retention: RetentionSettings };

export const DEFAULT_RETENTION: RetentionSettings = {
  seenIdsDays: 14,
  auditDays: 90,
  archiveAfterDays: 30,
  transcriptDays: 90,
  archiveDays: 60,
  surveyDays: 90,
};

const silent: StoreLogger = { info: () => {}, warn: () => {}, error: () => {} };

export function resolveStoreOptions(options: StoreOptions, defaultWriteIntervalMs: number): ResolvedStoreOptions {
  return {
    clock: options.clock ?? Date.now,
    logger: options.logger ?? silent,
    transcriptMaxLines: positive(options.transcriptMaxLines, 50, 'transcriptMaxLines'),
    transcriptMaxLineChars: positive(options.transcriptMaxLineChars, 2000, 'transcriptMaxLineChars'),
    retention: Object.fromEntries(
      Object.entries(DEFAULT_RETENTION).map(([name, fallback]) => [
        name,
        positive(options.retention?.[name as keyof RetentionSettings], fallback, `retention.${name}`),
      ]),
    ) as unknown as RetentionSettings,
    writeIntervalMs: Math.max(0, options.writeIntervalMs ?? defaultWriteIntervalMs),
  };
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new StoreError('invalid', `Store setting ${name} must be a positive number (got ${String(value)}).`);
  }
  return value;
}

export const DAY_MS = 24 * 60 * 60 * 1000;
