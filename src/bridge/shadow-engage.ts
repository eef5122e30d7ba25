import { NotFoundError, readOwnership, type HandoverItem, type HandoverOwner } from '../engage/index.js';
import type { BridgeEngage } from './bridge-engage.js';
import type { ShadowLog } from './shadow-log.js';

type HandoverRef = Parameters<BridgeEngage['handover']['get']>[0];

/**
 * The client a shadow bridge uses (`BRIDGE_MODE=shadow`): every read goes to the service, no write does. A write
 * answers as the service would have (the item read back, `true`, an empty publish answer) and is counted in the
 * shadow log, so the bridge carries on deciding as if it had acted. Who owns a contact is what the bridge would have
 * made it, until the service shows a later change (people acting in the tool): otherwise the bridge would read its
 * own unsent claim as people holding the contact.
 */
export function shadowEngage(engage: BridgeEngage, log: ShadowLog, now: () => number): BridgeEngage {
  const would = new Map<string, { owner: HandoverOwner; updated: number }>();
  const keyOf = (ref: HandoverRef) => `${ref.service}/${ref.serviceId}`;
  const serviceSeconds = () => Math.floor((engage.serviceNowMs() ?? now()) / 1000);
  const h = engage.handover;
  const read = async (ref: HandoverRef): Promise<HandoverItem> => {
    const item = await h.get(ref);
    const mine = would.get(keyOf(ref));
    if (!mine) return item;
    const updated = item.date?.updated;
    if (typeof updated === 'number' && updated > mine.updated) {
      would.delete(keyOf(ref));
      return item;
    }
    return { ...item, owner: mine.owner, date: { ...(item.date ?? {}), updated: mine.updated } };
  };
  const set = async (ref: HandoverRef, owner: HandoverOwner): Promise<HandoverItem> => {
    // A service that has no item for a contact never handed over (issue 26) still takes the write: so would it here.
    const before = await read(ref).catch((err: unknown) => {
      if (err instanceof NotFoundError) return { owner: 'agents' as const, date: { updated: null } };
      throw err;
    });
    if (owner === 'application') {
      const o = readOwnership(before);
      log.claimed(o.owner === 'agents' && !o.neverHandedOver);
      log.wrote('handover claim');
    } else {
      log.wrote('handover to people');
    }
    const updated = serviceSeconds();
    would.set(keyOf(ref), { owner, updated });
    return { ...before, owner, date: { ...(before.date ?? {}), updated } };
  };
  const unsent = (call: string): never => {
    throw new Error(`shadow mode: ${call} is not sent`);
  };
  return {
    ...engage,
    handover: {
      ...h,
      get: read,
      ownership: async (ref) => readOwnership(await read(ref)),
      toAgents: (ref) => set(ref, 'agents'),
      toApplication: (ref) => set(ref, 'application'),
    },
    publisher: {
      ...engage.publisher,
      add: async () => {
        log.wrote('publisher/add');
        return { messages: [], publisher_mention: null };
      },
    },
    mentions: {
      ...engage.mentions,
      update: async (ref) => {
        log.wrote('mention update');
        return engage.mentions.get(ref);
      },
      delete: async () => {
        log.wrote('mention delete');
        return true;
      },
    },
    contacts: {
      ...engage.contacts,
      update: async (ref, _updates, opts = {}) => {
        log.wrote('contact update');
        return engage.contacts.get(ref, opts.topicIds === undefined ? {} : { topicIds: opts.topicIds });
      },
      delete: async () => {
        log.wrote('contact delete');
        return true;
      },
    },
    users: {
      ...engage.users,
      update: async (id) => {
        log.wrote('user update');
        return engage.users.get(id);
      },
      delete: async () => {
        log.wrote('user delete');
        return true;
      },
    },
    publisherMentions: {
      ...engage.publisherMentions,
      update: async (id) => {
        log.wrote('publisher mention update');
        return engage.publisherMentions.get(id);
      },
      delete: async () => {
        log.wrote('publisher mention delete');
        return true;
      },
    },
    businessHours: {
      ...engage.businessHours,
      create: async () => unsent('a new business hours schedule'),
      update: async (id) => {
        log.wrote('business hours update');
        return engage.businessHours.get(id);
      },
      delete: async () => {
        log.wrote('business hours delete');
        return true;
      },
    },
  };
}
