import type { Store, ConversationRecord } from '../../storage/index.js';
import { ownerTransition, type OwnerState, type OwnershipEvent, type OwnerTransition } from './ownership-rules.js';
import type { BridgeEngage } from '../bridge-engage.js';
import { NotFoundError, readOwnership } from '../../engage/index.js';
import { splitKey } from '../contact-key.js';
import type { GuessReport } from '../guess-report.js';

export interface OwnershipChange {
  readonly key: string;
  readonly from: OwnerState;
  readonly to: OwnerState;
  readonly changed: boolean;
  readonly action?: string;
}

export interface OwnershipDeps {
  readonly store: Store;
  readonly engage: Pick<BridgeEngage, 'handover'>;
  readonly now: () => number;
  /** A cached owner older than this is re-confirmed with the service before the bot speaks. */
  readonly confirmAgeMs: number;
  readonly onChange?: (change: OwnershipChange & { actor: string; reason: string }) => void;
  /** `bot pause all`: the bridge claims no contact, takes none back by itself, and the bot says nothing. */
  readonly pausedForAll?: () => boolean;
  /** Told when a handover item does not say whether the contact was ever handed over. */
  readonly guesses?: Pick<GuessReport, 'notHeld'>;
}

function blankConversation(key: string, now: number): ConversationRecord {
  const { channel, serviceId } = splitKey(key);
  return { key, channel, serviceId, owner: 'unknown', transcript: [], updatedAt: now };
}

/**
 * The one module that changes who owns a contact: it asks the service to agree first (handover POST/DELETE),
 * then records the new owner and audits who did it and why.
 */
export class Ownership {
  constructor(private readonly deps: OwnershipDeps) {}

  async current(key: string): Promise<OwnerState> {
    return (await this.deps.store.getConversation(key))?.owner ?? 'unknown';
  }

  /** Applies an event; the handover call (if any) happens before the state is recorded. */
  async apply(key: string, event: OwnershipEvent, actor: string, reason: string): Promise<OwnershipChange> {
    const { store, now } = this.deps;
    const existing = await store.getConversation(key);
    const from: OwnerState = existing?.owner ?? 'unknown';
    const t = ownerTransition(from, event);
    if (t?.call === 'toApplication' && this.deps.pausedForAll?.() && !(event.type === 'return' && event.by === 'manager')) {
      // Paused for everyone: no claim and no return; only a manager's explicit return still goes through.
      return { key, from, to: from, changed: false };
    }
    if (!t) {
      if (event.type === 'observed') await this.touchConfirmed(key);
      if (event.type === 'human-activity') await this.touchHumanSeen(key);
      return { key, from, to: from, changed: false };
    }
    if (event.type === 'human-activity' && event.atMs !== undefined && (await this.handedBackSince(key, event.atMs, existing))) {
      // Read late: people handed the contact back to the application after they acted; that later word stands.
      await this.touchHumanSeen(key);
      return this.apply(
        key,
        { type: 'observed', owner: 'application', neverHandedOver: false },
        actor,
        'handed back after the person acted',
      );
    }
    const stamp = await this.callService(key, t);
    const at = now();
    await store.updateConversation(key, (c) => ({
      ...(c ?? blankConversation(key, at)),
      ...(stamp !== undefined ? { ownHandoverAt: stamp } : {}),
      owner: t.to,
      ownerChangedAt: at,
      ownerConfirmedAt: t.to === 'unknown' ? undefined : at,
      ...(event.type === 'human-activity' ? { humanSeenAt: at } : {}),
      updatedAt: at,
    }));
    await store.audit({ at, actor, action: `owner ${from} → ${t.to}: ${t.action}`, subject: key, reason });
    const change = { key, from, to: t.to, changed: true, action: t.action };
    this.deps.onChange?.({ ...change, actor, reason });
    return change;
  }

  /**
   * Asks the service who owns the contact and brings the local state in line. A contact the service has no handover
   * item for (404: issue 26) is left with people, never claimed; `onMissing` is told (to leave people a note).
   */
  async confirm(key: string, actor = 'bridge', reason = 'confirm owner', onMissing?: () => Promise<void>): Promise<OwnerState> {
    const { service, serviceId } = splitKey(key);
    let item: Awaited<ReturnType<OwnershipDeps['engage']['handover']['get']>>;
    try {
      item = await this.deps.engage.handover.get({ service, serviceId });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      this.deps.guesses?.notHeld(
        'handover-item-exists',
        'the service has no handover item for a contact (404): its messages are left with people, with a note',
        { contact: key },
      );
      await this.apply(key, { type: 'observed', owner: 'agents', neverHandedOver: false }, actor, `${reason}; no handover item (404)`);
      await onMissing?.();
      return this.current(key);
    }
    const o = readOwnership(item);
    if (!o.historyKnown) {
      // Without the "never handed over" signal an item held by agents may be people's: the contact stays theirs.
      this.deps.guesses?.notHeld(
        'handover-history',
        'a handover item shows no date.updated, so whether anyone ever took the contact is unknown: such contacts are left with people, never claimed',
        { contact: key },
      );
    }
    await this.apply(key, { type: 'observed', owner: o.owner, neverHandedOver: o.neverHandedOver }, actor, reason);
    return this.current(key);
  }

  /**
   * The send-time guard: true only when the bot owns the contact. A cached owner that is unknown (e.g. its record
   * was lost in a crash) or older than the configured age is re-confirmed with the service first. `read`: the
   * conversation as the caller has just read it, so the guard does not read (and parse) it a second time.
   */
  async botMaySpeak(key: string, read?: { readonly conversation: ConversationRecord | undefined }): Promise<boolean> {
    if (this.deps.pausedForAll?.()) return false;
    const c = read ? read.conversation : await this.deps.store.getConversation(key);
    if (c?.owner === 'paused') return false;
    const fresh = c !== undefined && c.owner !== 'unknown' && this.deps.now() - (c.ownerConfirmedAt ?? 0) <= this.deps.confirmAgeMs;
    if (fresh) return c.owner === 'bot';
    return (await this.confirm(key, 'bridge', 'confirm the owner before the bot speaks')) === 'bot';
  }

  /**
   * The service holds the contact for the application since `atMs` or later (both on the service's clock, compared
   * with each other only): people handed it back after that activity. A hand-back dated in the activity's own second
   * counts too: people reply, resolve and hand back within one second in the tool, and a person handing a contact
   * back and then writing to it within the same second is not a thing people do. The bridge's own claim dated in
   * that second is not people's hand-back: a person writing in the second the bot claimed took it over.
   */
  private async handedBackSince(key: string, atMs: number, conv: ConversationRecord | undefined): Promise<boolean> {
    const { service, serviceId } = splitKey(key);
    const o = readOwnership(await this.deps.engage.handover.get({ service, serviceId }));
    if (o.owner !== 'application' || o.updatedAt === null) return false;
    const activitySecond = Math.floor(atMs / 1000);
    return o.updatedAt > activitySecond || (o.updatedAt === activitySecond && conv?.ownHandoverAt !== o.updatedAt);
  }

  /** Makes the service agree; returns the date (service's seconds) on its answer to a write, when it gives one. */
  private async callService(key: string, t: OwnerTransition): Promise<number | undefined> {
    if (!t.call) return undefined;
    const { service, serviceId } = splitKey(key);
    const item =
      t.call === 'toAgents'
        ? await this.deps.engage.handover.toAgents({ service, serviceId })
        : await this.deps.engage.handover.toApplication({ service, serviceId });
    return readOwnership(item).updatedAt ?? undefined;
  }

  /** The idle clock's start, on our own clock: the service's date of the activity is never compared with ours. */
  private async touchHumanSeen(key: string): Promise<void> {
    const at = this.deps.now();
    await this.deps.store.updateConversation(key, (c) => (c ? { ...c, humanSeenAt: at } : undefined));
  }

  private async touchConfirmed(key: string): Promise<void> {
    const at = this.deps.now();
    await this.deps.store.updateConversation(key, (c) => (c ? { ...c, ownerConfirmedAt: at } : undefined));
  }
}
