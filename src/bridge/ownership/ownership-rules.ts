import type { Owner } from '../../shared/owner.js';
/**
 * The ownership state machine of one contact, as data: which events move it where, and which handover call
 * makes the service agree. Every path that changes an owner goes through `ownerTransition`.
 */
export type OwnerState = Owner;

export type OwnershipEvent =
  /** GET handover answered: what the service says now. */
  | { readonly type: 'observed'; readonly owner: 'application' | 'agents'; readonly neverHandedOver: boolean }
  /** The bot decided to hand the conversation to people. */
  | { readonly type: 'escalate' }
  /**
   * A person acted on the contact in the service's tool (a reply, a message of theirs), at `atMs` on the service's
   * clock (the activity's `date.added`) when known.
   */
  | { readonly type: 'human-activity'; readonly atMs?: number }
  /** People are done: resolved, idle, or a manager gave it back. */
  | { readonly type: 'return'; readonly by: 'resolved' | 'idle' | 'manager' | 'cancelled' | 'service' }
  /** A manager handed the contact to people. */
  | { readonly type: 'manager-to-agents' }
  | { readonly type: 'pause' }
  | { readonly type: 'resume' };

export type HandoverCall = 'toAgents' | 'toApplication';

export interface OwnerTransition {
  readonly to: OwnerState;
  /** The handover call that makes the service agree before the new state is recorded. */
  readonly call?: HandoverCall;
  /** What happened, for the audit log. */
  readonly action: string;
}

/** The next state for an event, or undefined when the event changes nothing. */
export function ownerTransition(from: OwnerState, event: OwnershipEvent): OwnerTransition | undefined {
  if (from === 'paused') {
    // A paused contact is the manager's: only resume (or a manager's explicit choice) moves it.
    if (event.type === 'resume') return { to: 'unknown', action: 'resumed' };
    if (event.type === 'return' && event.by === 'manager') return { to: 'bot', call: 'toApplication', action: 'returned to the bot' };
    if (event.type === 'manager-to-agents') return { to: 'agents', call: 'toAgents', action: 'handed to agents' };
    return undefined;
  }
  switch (event.type) {
    case 'observed':
      if (event.owner === 'application') {
        return from === 'bot' ? undefined : { to: 'bot', action: from === 'agents' ? 'returned by the service' : 'confirmed the bot' };
      }
      if (event.neverHandedOver) {
        // Never handed over: nobody has claimed the contact, so the bot may — but not one we already gave to people.
        return from === 'agents' ? undefined : { to: 'bot', call: 'toApplication', action: 'claimed' };
      }
      return from === 'agents' ? undefined : { to: 'agents', action: 'taken by agents in the service' };
    case 'escalate':
      return from === 'agents' ? undefined : { to: 'agents', call: 'toAgents', action: 'escalated' };
    case 'human-activity':
      return from === 'agents' ? undefined : { to: 'agents', call: 'toAgents', action: 'a person took over' };
    case 'return':
      return from === 'bot' ? undefined : { to: 'bot', call: 'toApplication', action: `returned to the bot (${event.by})` };
    case 'manager-to-agents':
      return from === 'agents' ? undefined : { to: 'agents', call: 'toAgents', action: 'handed to agents' };
    case 'pause':
      return { to: 'paused', action: 'paused' };
    case 'resume':
      return undefined;
  }
}
