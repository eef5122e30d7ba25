import { auditEntrySchema, ownerSchema } from '../records.js';
import type { AuditEntry, ConversationRecord } from '../records.js';
import { SURVEY_ANSWER_ACTION } from '../../shared/audit-entry.js';
import { slashForm } from '../../shared/contact-key.js';
import { StoreError } from '../store-error.js';
import { DAY_MS } from '../store-options.js';
import type { ResolvedStoreOptions, StoreLogger } from '../store-options.js';
import type { ForgetResult, OwnerCounts, PruneResult, RetentionCutoffs, RetentionResult } from '../store.js';
import type { SqlSession } from './sql-session.js';

/** Pruning, retention and forgetting a contact: `DELETE`s by date or by contact, run as one task of the store. */

/**
 * Whether an audit entry names the contact: its store key (`whatsapp:324…`) or the managers' form (`whatsapp/324…`),
 * whole (not the start of a longer id), in its subject, reason or result.
 */
function auditNamesContact(key: string): (entry: AuditEntry) => boolean {
  const forms = [key, slashForm(key)].map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const named = new RegExp(`(?:${forms})(?![\\w.@+-])`);
  return (entry) => [entry.subject, entry.reason, entry.result].some((text) => text !== undefined && named.test(text));
}

/** Whether the entry is a customer's survey answer (kept by its own retention setting). */
function isSurveyAnswer(entry: AuditEntry): boolean {
  return entry.action === SURVEY_ANSWER_ACTION;
}

/** Every readable audit entry with its row number, oldest first (unreadable rows are skipped and logged). */
async function readAuditRows(db: SqlSession, logger: StoreLogger): Promise<Array<[number, AuditEntry]>> {
  return parseAudit(await db.all<{ seq: number | string; body: string }>('SELECT seq, body FROM bridge_audit ORDER BY seq'), logger);
}

function parseAudit(rows: Array<{ seq: number | string; body: string }>, logger: StoreLogger): Array<[number, AuditEntry]> {
  const entries: Array<[number, AuditEntry]> = [];
  for (const row of rows) {
    let entry: AuditEntry | undefined;
    try {
      entry = auditEntrySchema.safeParse(JSON.parse(row.body)).data;
    } catch {
      entry = undefined;
    }
    if (entry) entries.push([Number(row.seq), entry]);
  }
  const bad = rows.length - entries.length;
  if (bad > 0) logger.warn({ table: 'bridge_audit' }, `skipped ${bad} unreadable audit row(s)`);
  return entries;
}

async function deleteAudit(db: SqlSession, logger: StoreLogger, drop: (entry: AuditEntry) => boolean): Promise<number> {
  let dropped = 0;
  for (const [seq, entry] of await readAuditRows(db, logger)) {
    if (drop(entry)) dropped += await db.write('DELETE FROM bridge_audit WHERE seq = ?', [seq]);
  }
  return dropped;
}

async function count(db: SqlSession, sql: string, values: Array<string | number>): Promise<number> {
  return Number((await db.get<{ n: number | string }>(sql, values))?.n ?? 0);
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
    const page = await db.all<{ seq: number | string; body: string }>(
      'SELECT seq, body FROM bridge_audit WHERE seq < ? ORDER BY seq DESC LIMIT ?',
      [before, pageSize],
    );
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

export async function pruneRows(
  db: SqlSession,
  before: { seen: number; audit: number; survey: number },
  logger: StoreLogger,
): Promise<PruneResult> {
  return {
    // A mention still waiting keeps its id.
    seenIds: await db.write('DELETE FROM bridge_seen WHERE at < ? AND ref NOT IN (SELECT ref FROM bridge_mentions)', [before.seen]),
    effects: await db.write("DELETE FROM bridge_effects WHERE status <> 'pending' AND updated_at < ?", [before.seen]),
    escalations: await db.write(
      "DELETE FROM bridge_escalation_rows WHERE status IN ('cancelled', 'returned', 'resolved') AND updated_at < ?",
      [before.audit],
    ),
    auditEntries: await deleteAudit(db, logger, (entry) => entry.at < (isSurveyAnswer(entry) ? before.survey : before.audit)),
    // Only the latest copy of a conversation still archived is ever read.
    archiveCopies: await db.write(
      'DELETE FROM bridge_archive WHERE seq NOT IN (SELECT max(seq) FROM bridge_archive GROUP BY key) OR key NOT IN (SELECT key FROM bridge_conversations WHERE archived_at IS NOT NULL)',
    ),
  };
}

function cutoff(given: number | undefined, days: number, now: number, name: string): number {
  if (given === undefined) return now - days * DAY_MS;
  if (!Number.isFinite(given))
    throw new StoreError('invalid', `${name} must be epoch milliseconds (got ${String(given)}); nothing was changed.`);
  return given;
}

export async function applyRetentionRows(
  db: SqlSession,
  cutoffs: RetentionCutoffs,
  options: ResolvedStoreOptions,
): Promise<RetentionResult> {
  const now = options.clock();
  const { transcriptDays, archiveDays, surveyDays } = options.retention;
  const transcriptBefore = cutoff(cutoffs.transcriptBeforeMs, transcriptDays, now, 'transcriptBeforeMs');
  const archiveBefore = cutoff(cutoffs.archiveBeforeMs, archiveDays, now, 'archiveBeforeMs');
  const surveyBefore = cutoff(cutoffs.surveyBeforeMs, surveyDays, now, 'surveyBeforeMs');
  db.recent.clear();
  const trimmedConversations = await count(db, 'SELECT count(DISTINCT key) AS n FROM bridge_transcript WHERE at < ?', [transcriptBefore]);
  const transcriptLines = await db.write('DELETE FROM bridge_transcript WHERE at < ?', [transcriptBefore]);
  const expired = 'SELECT key FROM bridge_conversations WHERE archived_at IS NOT NULL AND archived_at < ?';
  const archiveCopies = await db.write(`DELETE FROM bridge_archive WHERE key IN (${expired})`, [archiveBefore]);
  const archivedConversations = await db.write(`DELETE FROM bridge_conversations WHERE key IN (${expired})`, [archiveBefore]);
  const surveyAnswers = await deleteAudit(db, options.logger, (entry) => isSurveyAnswer(entry) && entry.at < surveyBefore);
  return { transcriptLines, trimmedConversations, archivedConversations, archiveCopies, surveyAnswers };
}

/** See `Store.forgetContact`: counts first; a dry run or an unknown contact stops there, having changed nothing. */
export async function forgetContactRows(db: SqlSession, key: string, dryRun: boolean, logger: StoreLogger): Promise<ForgetResult> {
  const conversation = await db.get<{ archived_at: number | null }>('SELECT archived_at FROM bridge_conversations WHERE key = ?', [key]);
  let transcriptLines = await count(db, 'SELECT count(*) AS n FROM bridge_transcript WHERE key = ?', [key]);
  if (conversation?.archived_at != null) {
    const copy = await db.get<{ body: string }>('SELECT body FROM bridge_archive WHERE key = ? ORDER BY seq DESC LIMIT 1', [key]);
    transcriptLines = copy ? (JSON.parse(copy.body) as ConversationRecord).transcript.length : 0;
  }
  const names = auditNamesContact(key);
  const audit = (await readAuditRows(db, logger)).filter(([, entry]) => names(entry));
  const surveyAnswers = audit.filter(([, entry]) => isSurveyAnswer(entry)).length;
  const pendingEffects = await count(db, "SELECT count(*) AS n FROM bridge_effects WHERE contact_key = ? AND status = 'pending'", [key]);
  const counted = {
    conversations: conversation ? 1 : 0,
    archivedCopies: await count(db, 'SELECT count(*) AS n FROM bridge_archive WHERE key = ?', [key]),
    transcriptLines,
    inbox: await count(db, 'SELECT count(*) AS n FROM bridge_mentions WHERE key = ?', [key]),
    pendingEffects,
    finishedEffects: (await count(db, 'SELECT count(*) AS n FROM bridge_effects WHERE contact_key = ?', [key])) - pendingEffects,
    escalations: await count(db, 'SELECT count(*) AS n FROM bridge_escalation_rows WHERE contact_key = ?', [key]),
    surveyAnswers,
    auditEntries: audit.length - surveyAnswers,
  };
  const known = Object.values(counted).some((n) => n > 0);
  if (dryRun || !known) return { known, ...counted };
  db.recent.delete(key);
  // Its mentions' ids stay seen (a seen id names no contact): a mention read again is never answered.
  for (const table of ['bridge_conversations', 'bridge_transcript', 'bridge_archive', 'bridge_mentions']) {
    await db.write(`DELETE FROM ${table} WHERE key = ?`, [key]);
  }
  for (const table of ['bridge_effects', 'bridge_escalation_rows']) await db.write(`DELETE FROM ${table} WHERE contact_key = ?`, [key]);
  for (const [seq] of audit) await db.write('DELETE FROM bridge_audit WHERE seq = ?', [seq]);
  return { known: true, ...counted };
}
