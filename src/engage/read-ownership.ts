import type { HandoverItem, HandoverOwner } from './schemas/handover-item.js';

export interface Ownership {
  owner: HandoverOwner;
  /** Nobody ever set an owner: the bot may claim the contact. */
  neverHandedOver: boolean;
  /** When the owner was last set (UNIX seconds), null if never. */
  updatedAt: number | null;
}

/**
 * The one reading of a handover item (conventions: "never handed over" = owner agents and
 * `date.updated` null). If the real service shapes the item differently, only this changes.
 */
export function readOwnership(item: HandoverItem): Ownership {
  const updatedAt = item.date?.updated ?? null;
  return {
    owner: item.owner,
    neverHandedOver: item.owner === 'agents' && updatedAt === null,
    updatedAt,
  };
}
