import type { Effect } from '../../storage/index.js';
import type { PayloadOf, PerformerDeps } from './performer.js';

/** The customer called the escalation off: open and queued ones are cancelled; one handed over comes back to the bot. */
export async function performCancelEscalation(deps: PerformerDeps, effect: Effect, p: PayloadOf<'cancel-escalation'>) {
  const key = effect.contactKey;
  const open = await deps.store.listEscalations({ contactKey: key, status: ['open', 'queued'] });
  for (const e of open) {
    await deps.store.updateEscalation(e.id, { status: 'cancelled' });
    deps.notifier.noticeUpdated(e.id, 'The customer called off the escalation before anyone took it.');
  }
  if (open.some((e) => e.status === 'open') && (await deps.ownership.current(key)) === 'agents') {
    await deps.ownership.apply(key, { type: 'return', by: 'cancelled' }, 'customer', p.reason);
    deps.metrics.returnsToBot.inc({ reason: 'cancelled' });
  }
  return { cancelled: open.length };
}
