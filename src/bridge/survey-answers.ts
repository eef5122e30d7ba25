import { SURVEY_ANSWER_ACTION } from '../shared/audit-entry.js';
import type { Store } from '../storage/index.js';
import { slashForm } from './contact-key.js';

/** The audit action under which a customer's CSAT/NPS answer is kept (the store's append-only log; defined in shared/). */
export { SURVEY_ANSWER_ACTION };

export interface SurveyAnswer {
  readonly at: number;
  /** `service/service_id` */
  readonly contactKey: string;
  readonly kind: 'csat' | 'nps';
  readonly score: number;
  readonly channel: string;
  /** The escalation reason of the stretch the answer rates. */
  readonly reason: string;
}

const MAX_READ = 100_000;

/** Answers recorded at or after `sinceMs`, oldest first; an entry that does not read as an answer is skipped. */
export async function listSurveyAnswers(store: Store, sinceMs: number): Promise<SurveyAnswer[]> {
  const entries = await store.listAudit({ since: sinceMs, limit: MAX_READ });
  const out: SurveyAnswer[] = [];
  for (const e of entries) {
    if (e.action !== SURVEY_ANSWER_ACTION || !e.result) continue;
    try {
      const v = JSON.parse(e.result) as Partial<SurveyAnswer>;
      if ((v.kind !== 'csat' && v.kind !== 'nps') || typeof v.score !== 'number') continue;
      out.push({
        at: e.at,
        contactKey: slashForm(e.subject),
        kind: v.kind,
        score: v.score,
        channel: typeof v.channel === 'string' ? v.channel : 'unknown',
        reason: typeof v.reason === 'string' ? v.reason : 'none',
      });
    } catch {
      // Not ours to judge: an unreadable entry is left out of the figures.
    }
  }
  return out;
}
