import type { Effect } from '../../storage/index.js';
import { annotateEscalation, summaryWithNote } from './escalation-annotations.js';
import { noticeOf, recordEscalation } from '../escalation-record.js';
import type { PayloadOf, PerformerDeps } from './performer.js';

/**
 * An escalation: the handover to people, then the escalation record, the tags and note on the customer's mention
 * (`suspect`: the note is looked for before it is added again), and the managers' notice.
 */
export async function performHandover(deps: PerformerDeps, effect: Effect, p: PayloadOf<'escalate'>, suspect: boolean) {
  const key = effect.contactKey;
  const a = p.action;
  // The handover is the act: it goes first, and nothing written on the mention afterwards can undo or block it.
  await deps.ownership.apply(key, { type: 'escalate' }, 'bot', a.reason);
  const escalation = await recordEscalation(deps.store, key, {
    reason: a.reason,
    priority: a.priority,
    status: 'open',
    target: p.target,
    summary: a.packet.summary,
    ...(p.permalink ? { permalink: p.permalink } : {}),
  });
  const outcome = await annotateEscalation(deps, key, { target: p.target, tags: a.tags, note: a.note }, suspect);
  deps.metrics.escalations.inc({ reason: a.reason });
  deps.shadow?.escalated(a.reason);
  deps.notifier.escalated(
    noticeOf(
      escalation.id,
      key,
      p.customerName ?? a.packet.contactName,
      a.reason,
      a.packet.trigger,
      summaryWithNote(a.packet.summary, outcome),
      a.packet.transcript,
      p.permalink,
      deps.now(),
    ),
  );
  return { escalationId: escalation.id, tagged: outcome.tagged, noted: outcome.noted };
}
