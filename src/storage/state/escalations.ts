import type { HotState } from '../hot-state.js';
import type { Escalation, EscalationInput, EscalationPatch, EscalationStatus } from '../records.js';
import { StoreError } from '../store-error.js';

const CLOSED: ReadonlySet<EscalationStatus> = new Set(['cancelled', 'returned', 'resolved']);

export function openEscalationIn(state: HotState, input: EscalationInput, now: number): Escalation {
  const id = `esc-${state.meta.nextEscalationSeq}`;
  state.meta.nextEscalationSeq += 1;
  const escalation: Escalation = { ...input, id, status: input.status ?? 'open', createdAt: now, updatedAt: now };
  state.escalations.set(id, escalation);
  return escalation;
}

export function updateEscalationIn(state: HotState, id: string, patch: EscalationPatch, now: number): Escalation {
  const current = state.escalations.get(id);
  if (!current) throw new StoreError('invalid', `No escalation ${id}; nothing was changed.`);
  const next: Escalation = { ...current, updatedAt: now };
  for (const [field, value] of Object.entries(patch)) {
    if (value !== undefined) Object.assign(next, { [field]: value });
  }
  state.escalations.set(id, next);
  return next;
}

export function listEscalationsIn(
  state: HotState,
  filter: { status?: EscalationStatus | EscalationStatus[]; contactKey?: string },
): Escalation[] {
  const statuses = filter.status === undefined ? undefined : new Set([filter.status].flat());
  return [...state.escalations.values()]
    .filter(
      (e) => (statuses === undefined || statuses.has(e.status)) && (filter.contactKey === undefined || e.contactKey === filter.contactKey),
    )
    .sort((a, b) => a.createdAt - b.createdAt || escalationSeq(a) - escalationSeq(b));
}

function escalationSeq(escalation: Escalation): number {
  return Number(escalation.id.slice('esc-'.length)) || 0;
}

/** Drops closed escalations last touched before the cut-off; open, queued and taken ones stay. */
export function pruneEscalationsIn(state: HotState, beforeMs: number): number {
  let dropped = 0;
  for (const [id, escalation] of state.escalations) {
    if (CLOSED.has(escalation.status) && escalation.updatedAt < beforeMs) {
      state.escalations.delete(id);
      dropped += 1;
    }
  }
  return dropped;
}
