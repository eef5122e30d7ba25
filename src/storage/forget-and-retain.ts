import type { ConversationBook } from './conversation-book.js';
import type { HotState } from './hot-state.js';
import type { Persistence } from './persistence.js';
import type { AuditEntry } from './records.js';
import { trimHotLinesIn } from './state/conversations.js';
import { auditNamesContact, forgetInState, isSurveyAnswer } from './state/forget.js';
import { StoreError } from './store-error.js';
import { DAY_MS } from './store-options.js';
import type { ResolvedStoreOptions } from './store-options.js';
import type { ForgetResult, RetentionCutoffs, RetentionResult } from './store.js';

/** What forgetting and retention need of the store: its state, its conversations, its persistence and its commit. */
export interface ForgetDeps {
  readonly state: HotState;
  readonly book: ConversationBook;
  readonly persistence: Persistence;
  readonly options: ResolvedStoreOptions;
  markDirty(): void;
  /** Resolves once every change so far (audit entries waiting in memory included) is on disk. */
  flush(): Promise<void>;
}

/** The audit log's retention: survey answers by their own setting, every other entry by the audit's. */
export function auditRetention(auditBeforeMs: number, surveyBeforeMs: number): (entry: AuditEntry) => boolean {
  return (entry) => entry.at >= (isSurveyAnswer(entry) ? surveyBeforeMs : auditBeforeMs);
}

async function countAudit(d: ForgetDeps, names: (entry: AuditEntry) => boolean): Promise<{ surveyAnswers: number; auditEntries: number }> {
  const counts = { surveyAnswers: 0, auditEntries: 0 };
  await d.persistence.readAudit((entry) => {
    if (!names(entry)) return;
    if (isSurveyAnswer(entry)) counts.surveyAnswers += 1;
    else counts.auditEntries += 1;
  });
  return counts;
}

function isKnown(result: Omit<ForgetResult, 'known'>): boolean {
  return Object.values(result).some((count) => count > 0);
}

/** See `Store.forgetContact`. Counts first; a dry run or an unknown contact stops there, having changed nothing. */
export async function forgetContactIn(d: ForgetDeps, key: string, dryRun: boolean): Promise<ForgetResult> {
  const names = auditNamesContact(key);
  // Audit entries still waiting in memory reach the log first, so the count and the rewrite see them.
  await d.flush();
  const counted = { ...(await d.book.forget(key, true)), ...forgetInState(d.state, key, true), ...(await countAudit(d, names)) };
  if (dryRun || !isKnown(counted)) return { known: isKnown(counted), ...counted };
  const inState = forgetInState(d.state, key, false);
  d.markDirty();
  const conversation = await d.book.forget(key, false);
  await d.flush();
  const audit = { surveyAnswers: 0, auditEntries: 0 };
  await d.persistence.rewriteAudit((entry) => {
    if (!names(entry)) return true;
    if (isSurveyAnswer(entry)) audit.surveyAnswers += 1;
    else audit.auditEntries += 1;
    return false;
  });
  return { known: true, ...conversation, ...inState, ...audit };
}

function cutoff(given: number | undefined, days: number, now: number, name: string): number {
  if (given === undefined) return now - days * DAY_MS;
  if (!Number.isFinite(given))
    throw new StoreError('invalid', `${name} must be epoch milliseconds (got ${String(given)}); nothing was changed.`);
  return given;
}

/** See `Store.applyRetention`. */
export async function applyRetentionIn(d: ForgetDeps, cutoffs: RetentionCutoffs): Promise<RetentionResult> {
  const now = d.options.clock();
  const { transcriptDays, archiveDays, surveyDays } = d.options.retention;
  const transcriptBefore = cutoff(cutoffs.transcriptBeforeMs, transcriptDays, now, 'transcriptBeforeMs');
  const archiveBefore = cutoff(cutoffs.archiveBeforeMs, archiveDays, now, 'archiveBeforeMs');
  const surveyBefore = cutoff(cutoffs.surveyBeforeMs, surveyDays, now, 'surveyBeforeMs');
  // The SQL stores delete the lines by date (`bridge_transcript_at`) rather than read and rewrite each conversation.
  await d.flush();
  const trimmed = d.persistence.deleteTranscriptBefore
    ? await d.persistence.deleteTranscriptBefore(d.state, transcriptBefore)
    : await trimHotLinesIn(d.state, transcriptBefore);
  const archive = await d.book.expireArchive(archiveBefore, d.flush);
  await d.flush();
  const surveyAnswers = await d.persistence.rewriteAudit((entry) => !isSurveyAnswer(entry) || entry.at >= surveyBefore);
  return {
    transcriptLines: trimmed.lines,
    trimmedConversations: trimmed.conversations,
    archivedConversations: archive.conversations,
    archiveCopies: archive.copies,
    surveyAnswers,
  };
}
