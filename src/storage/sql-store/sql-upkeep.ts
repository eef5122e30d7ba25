import { auditEntrySchema, ownerSchema } from '../records.js';
import type { AuditEntry } from '../records.js';
import { SURVEY_ANSWER_ACTION } from '../../shared/audit-entry.js';
import { slashForm } from '../../shared/contact-key.js';
import { StoreError } from '../store-error.js';
import { DAY_MS } from '../store-options.js';
import type { ResolvedStoreOptions, StoreLogger } from '../store-options.js';
import type { ForgetResult, OwnerCounts, PruneResult, RetentionCutoffs, RetentionResult } from '../store.js';
import { archivedCopy } from './conversation-rows.js';
import type { SqlSession } from './sql-session.js';

/** The audit log, pruning, retention and forgetting a contact: `DELETE`s by date or by contact, run as one task of the store. */

type AuditRow = { seq: number | string; body: string };

/** A customer's survey answer is kept by its own retention setting. */
const isSurveyAnswer = (entry: AuditEntry): boolean => entry.action === SURVEY_ANSWER_ACTION;

/**
 * Whether an audit entry names the contact: its store key (`whatsapp:324…`) or the managers' form (`whatsapp/324…`),
 * whole (not the start of a longer id), in its subject, reason or result.
 */
function auditNamesContact(key: string): (entry: AuditEntry) => boolean {
  const forms = [key, slashForm(key)].map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const named = new RegExp(`(?:${forms})(?![\\w.@+-])`);
  return (entry) => [entry.subject, entry.reason, entry.result].some((text) => text !== undefined && named.test(text));
}

/** The readable entries of audit rows with their row numbers (unreadable rows are skipped and logged). */
function parseAudit(rows: AuditRow[], logger: StoreLogger): Array<[number, AuditEntry]> {
  const entries = rows.flatMap((row): Array<[number, AuditEntry]> => {
    try {
      const entry = auditEntrySchema.safeParse(JSON.parse(row.body)).data;
      return entry ? [[Number(row.seq), entry]] : [];
    } catch {
      return [];
    }
  });
  const bad = rows.length - entries.length;
  if (bad > 0) logger.warn({ table: 'bridge_audit' }, `skipped ${bad} unreadable audit row(s)`);
  return entries;
}

async function readAudit(db: SqlSession, logger: StoreLogger, pick: (entry: AuditEntry) => boolean): Promise<Array<[number, AuditEntry]>> {
  return parseAudit(await db.all<AuditRow>('SELECT seq, body FROM bridge_audit ORDER BY seq'), logger).filter(([, entry]) => pick(entry));
}

async function deleteAudit(db: SqlSession, entries: Array<[number, AuditEntry]>): Promise<number> {
  for (const [seq] of entries) await db.write('DELETE FROM bridge_audit WHERE seq = ?', [seq]);
  return entries.length;
}

/**
 * The most recent `limit` (default 100) audit entries at or after `since`, oldest first: read newest first, a page
 * at a time, until enough are found (unreadable rows are skipped and logged).
 */
export async function latestAudit(db: SqlSession, filter: { since?: number; limit?: number }, logger: StoreLogger): Promise<AuditEntry[]> {
  const limit = Math.max(0, Math.floor(filter.limit ?? 100));
  const since = filter.since ?? Number.NEGATIVE_INFINITY;
  const found: AuditEntry[] = [];
  const pageSize = Math.max(limit, 100);
  let before = Number.MAX_SAFE_INTEGER;
  while (found.length < limit) {
    const page = await db.all<AuditRow>('SELECT seq, body FROM bridge_audit WHERE seq < ? ORDER BY seq DESC LIMIT ?', [before, pageSize]);
    for (const [, entry] of parseAudit(page, logger)) if (entry.at >= since && found.length < limit) found.push(entry);
    if (page.length < pageSize) break;
    before = Number(page.at(-1)!.seq);
  }
  return found.reverse();
}

/** Live conversations by owner (an index scan), and the archived ones (their owner is NULL). */
export async function ownerCounts(db: SqlSession): Promise<OwnerCounts> {
  const counts: OwnerCounts = { bot: 0, agents: 0, paused: 0, unknown: 0, archived: 0 };
  for (const row of await db.all<{ owner: string | null; n: number | string }>(
    'SELECT owner, count(*) AS n FROM bridge_conversations GROUP BY owner',
  )) {
    const owner = row.owner === null ? 'archived' : ownerSchema.safeParse(row.owner).data;
    if (owner) counts[owner] += Number(row.n);
  }
  return counts;
}

/** A cutoff given (epoch ms, checked before anything is deleted), else `days` before `now`. */
function cutoff<C extends object>(cutoffs: C, name: keyof C & string, days: number, now: number): number {
  const given = cutoffs[name] as number | undefined;
  if (given !== undefined && !Number.isFinite(given))
    throw new StoreError('invalid', `${name} must be epoch milliseconds (got ${String(given)}); nothing was changed.`);
  return given ?? now - days * DAY_MS;
}

export async function pruneRows(
  db: SqlSession,
  cutoffs: { seenBeforeMs?: number; auditBeforeMs?: number },
  options: ResolvedStoreOptions,
): Promise<PruneResult> {
  const now = options.clock();
  const { seenIdsDays, auditDays, surveyDays } = options.retention;
  const before = {
    seen: cutoff(cutoffs, 'seenBeforeMs', seenIdsDays, now),
    audit: cutoff(cutoffs, 'auditBeforeMs', auditDays, now),
    survey: now - surveyDays * DAY_MS,
  };
  const oldAudit = await readAudit(db, options.logger, (entry) => entry.at < (isSurveyAnswer(entry) ? before.survey : before.audit));
  return {
    // A mention still waiting keeps its id.
    seenIds: await db.write('DELETE FROM bridge_seen WHERE at < ? AND ref NOT IN (SELECT ref FROM bridge_mentions)', [before.seen]),
    effects: await db.write("DELETE FROM bridge_effects WHERE status <> 'pending' AND updated_at < ?", [before.seen]),
    escalations: await db.write(
      "DELETE FROM bridge_escalation_rows WHERE status IN ('cancelled', 'returned', 'resolved') AND updated_at < ?",
      [before.audit],
    ),
    auditEntries: await deleteAudit(db, oldAudit),
    // Only the latest copy of a conversation still archived is ever read.
    archiveCopies: await db.write(
      'DELETE FROM bridge_archive WHERE seq NOT IN (SELECT max(seq) FROM bridge_archive GROUP BY key) OR key NOT IN (SELECT key FROM bridge_conversations WHERE archived_at IS NOT NULL)',
    ),
  };
}

export async function applyRetentionRows(
  db: SqlSession,
  cutoffs: RetentionCutoffs,
  options: ResolvedStoreOptions,
): Promise<RetentionResult> {
  const now = options.clock();
  const transcriptBefore = cutoff(cutoffs, 'transcriptBeforeMs', options.retention.transcriptDays, now);
  const archiveBefore = cutoff(cutoffs, 'archiveBeforeMs', options.retention.archiveDays, now);
  const surveyBefore = cutoff(cutoffs, 'surveyBeforeMs', options.retention.surveyDays, now);
  db.recent.clear();
  const trimmedConversations = await db.count('SELECT count(DISTINCT key) AS n FROM bridge_transcript WHERE at < ?', [transcriptBefore]);
  const transcriptLines = await db.write('DELETE FROM bridge_transcript WHERE at < ?', [transcriptBefore]);
  const expired = 'SELECT key FROM bridge_conversations WHERE archived_at IS NOT NULL AND archived_at < ?';
  const archiveCopies = await db.write(`DELETE FROM bridge_archive WHERE key IN (${expired})`, [archiveBefore]);
  const archivedConversations = await db.write(`DELETE FROM bridge_conversations WHERE key IN (${expired})`, [archiveBefore]);
  const surveyAnswers = await deleteAudit(db, await readAudit(db, options.logger, (e) => isSurveyAnswer(e) && e.at < surveyBefore));
  return { transcriptLines, trimmedConversations, archivedConversations, archiveCopies, surveyAnswers };
}

/** The contact's rows `forgetContact` counts (by the name of its result) and deletes, beside its conversation's. */
const CONTACT_ROWS = {
  archivedCopies: 'bridge_archive WHERE key = ?',
  inbox: 'bridge_mentions WHERE key = ?',
  pendingEffects: "bridge_effects WHERE contact_key = ? AND status = 'pending'",
  finishedEffects: "bridge_effects WHERE contact_key = ? AND status <> 'pending'",
  escalations: 'bridge_escalation_rows WHERE contact_key = ?',
};

/** See `Store.forgetContact`: counts first; a dry run or an unknown contact stops there, having changed nothing. */
export async function forgetContactRows(db: SqlSession, key: string, dryRun: boolean, logger: StoreLogger): Promise<ForgetResult> {
  const conversation = await db.get<{ archived_at: number | null }>('SELECT archived_at FROM bridge_conversations WHERE key = ?', [key]);
  let transcriptLines = await db.count('SELECT count(*) AS n FROM bridge_transcript WHERE key = ?', [key]);
  if (conversation?.archived_at != null) transcriptLines = (await archivedCopy(db, key))?.transcript.length ?? 0;
  const audit = await readAudit(db, logger, auditNamesContact(key));
  const surveyAnswers = audit.filter(([, entry]) => isSurveyAnswer(entry)).length;
  const counted: Record<string, number> = {
    conversations: conversation ? 1 : 0,
    transcriptLines,
    surveyAnswers,
    auditEntries: audit.length - surveyAnswers,
  };
  for (const [kind, rows] of Object.entries(CONTACT_ROWS)) counted[kind] = await db.count(`SELECT count(*) AS n FROM ${rows}`, [key]);
  const known = Object.values(counted).some((n) => n > 0);
  if (dryRun || !known) return { known, ...counted } as ForgetResult;
  db.recent.delete(key);
  // Its mentions' ids stay seen (a seen id names no contact): a mention read again is never answered.
  for (const rows of ['bridge_conversations WHERE key = ?', 'bridge_transcript WHERE key = ?', ...Object.values(CONTACT_ROWS)]) {
    await db.write(`DELETE FROM ${rows}`, [key]);
  }
  await deleteAudit(db, audit);
  return { known: true, ...counted } as ForgetResult;
}
