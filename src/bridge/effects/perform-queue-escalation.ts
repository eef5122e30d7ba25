import type { Effect } from '../../storage/index.js';
import { recordEscalation } from '../escalation-record.js';
import type { PayloadOf, PerformerDeps } from './performer.js';

/** Outside opening hours: the escalation is recorded as queued, for the scheduler to release; no call, no notice. */
export async function performQueueEscalation(deps: PerformerDeps, effect: Effect, p: PayloadOf<'queue-escalation'>) {
  const escalation = await recordEscalation(deps.store, effect.contactKey, {
    reason: p.reason,
    priority: 'medium',
    status: 'queued',
    target: p.target,
    summary: `queued for opening time${p.releaseAt ? ` (${new Date(p.releaseAt).toISOString()})` : ''}`,
    ...(p.permalink ? { permalink: p.permalink } : {}),
  });
  return { escalationId: escalation.id, queued: true };
}
