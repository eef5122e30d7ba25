import { SURVEY_ANSWER_ACTION } from '../../shared/audit-entry.js';
import { slashForm } from '../../shared/contact-key.js';
import type { HotState } from '../hot-state.js';
import type { AuditEntry } from '../records.js';

/** The contact's mentions, effects and escalations in the hot state: counted, and removed unless `dryRun`. */
export function forgetInState(
  state: HotState,
  key: string,
  dryRun: boolean,
): { inbox: number; pendingEffects: number; finishedEffects: number; escalations: number } {
  const mentions = state.inbox.filter((mention) => mention.key === key);
  const effects = [...state.outbox.entries()].filter(([, effect]) => effect.contactKey === key);
  const escalations = [...state.escalations.values()].filter((escalation) => escalation.contactKey === key);
  const pendingEffects = effects.filter(([, effect]) => effect.status === 'pending').length;
  if (!dryRun) {
    // Their ids stay seen (a seen id names no contact): a mention read again is never answered.
    state.inbox = state.inbox.filter((mention) => mention.key !== key);
    for (const [effectKey] of effects) {
      state.outbox.delete(effectKey);
      state.pendingEffects.delete(effectKey, key);
    }
    for (const escalation of escalations) state.escalations.delete(escalation.id);
  }
  return { inbox: mentions.length, pendingEffects, finishedEffects: effects.length - pendingEffects, escalations: escalations.length };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether an audit entry names the contact: its store key (`whatsapp:324…`) or the managers' form (`whatsapp/324…`),
 * whole (not the start of a longer id), in its subject, reason or result.
 */
export function auditNamesContact(key: string): (entry: AuditEntry) => boolean {
  const forms = [key, slashForm(key)].map(escapeRegExp).join('|');
  const named = new RegExp(`(?:${forms})(?![\\w.@+-])`);
  return (entry) =>
    named.test(entry.subject) ||
    (entry.reason !== undefined && named.test(entry.reason)) ||
    (entry.result !== undefined && named.test(entry.result));
}

/** Whether the entry is a customer's survey answer (kept by its own retention setting). */
export function isSurveyAnswer(entry: AuditEntry): boolean {
  return entry.action === SURVEY_ANSWER_ACTION;
}
