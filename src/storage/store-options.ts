/** What the store may log: pino's `(fields, message)` signature, so a pino child logger fits as is. */
export interface StoreLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/**
 * Days kept: mention ids seen and finished effects (`seenIdsDays`), audit entries and closed escalations, survey
 * answers; a conversation untouched `archiveAfterDays` is archived; `applyRetention` deletes transcript lines older
 * than `transcriptDays` and archived conversations `archiveDays` after their archiving (`src/storage/README.md`).
 */
export interface RetentionSettings {
  seenIdsDays: number;
  auditDays: number;
  archiveAfterDays: number;
  transcriptDays: number;
  archiveDays: number;
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
  /** The commit window (`BRIDGE_COMMIT_WINDOW_MS`; 0: the next turn of the event loop). */
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

/** Defaults for the options not given; the values given are the caller's, checked where settings enter (`src/config.ts`). */
export function resolveStoreOptions(options: StoreOptions, defaultWriteIntervalMs: number): ResolvedStoreOptions {
  return {
    clock: options.clock ?? Date.now,
    logger: options.logger ?? silent,
    transcriptMaxLines: options.transcriptMaxLines ?? 50,
    transcriptMaxLineChars: options.transcriptMaxLineChars ?? 2000,
    retention: Object.fromEntries(
      Object.entries(DEFAULT_RETENTION).map(([name, fallback]) => [name, options.retention?.[name as keyof RetentionSettings] ?? fallback]),
    ) as unknown as RetentionSettings,
    writeIntervalMs: options.writeIntervalMs ?? defaultWriteIntervalMs,
  };
}

export const DAY_MS = 24 * 60 * 60 * 1000;
