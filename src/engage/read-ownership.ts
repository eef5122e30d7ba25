import type { HandoverItem, HandoverOwner } from './schemas/handover-item.js';

export interface Ownership {
  owner: HandoverOwner;
  /** Nobody ever set an owner: the bot may claim the contact. */
  neverHandedOver: boolean;
  /** When the owner was last set (UNIX seconds), null if never (or unknown). */
  updatedAt: number | null;
  /**
   * The item says whether the contact was ever handed over (`date.updated` present, null or a time). The description
   * shows only the owner: without the date the history is unknown, and the contact is never "never handed over".
   */
  historyKnown: boolean;
}

/**
 * The one reading of a handover item (conventions: "never handed over" = owner agents and
 * `date.updated` null). If the real service shapes the item differently, only this changes.
 */
export function readOwnership(item: HandoverItem): Ownership {
  const historyKnown = item.date !== undefined && item.date !== null && item.date.updated !== undefined;
  const updatedAt = item.date?.updated ?? null;
  return {
    owner: item.owner,
    neverHandedOver: historyKnown && item.owner === 'agents' && updatedAt === null,
    updatedAt,
    historyKnown,
  };
}
