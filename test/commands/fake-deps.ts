import type { BusinessHoursSchedule, Contact, Mention } from '../../src/engage/schemas/index.js';
import type { AuditEntry, BridgeControl, CommandDeps, CommandEngageClient } from '../../src/commands/ports.js';

export interface PortCall {
  port: string;
  args: unknown[];
}

export interface FakeDeps extends CommandDeps {
  readonly calls: PortCall[];
  readonly audits: AuditEntry[];
}

type Overrides = {
  engage?: {
    mentions?: Partial<CommandEngageClient['mentions']>;
    contacts?: Partial<CommandEngageClient['contacts']>;
    handover?: Partial<CommandEngageClient['handover']>;
    /** The schedules, served by the fake one per page so paging is exercised. */
    businessHours?: { list?: () => Promise<BusinessHoursSchedule[]> };
  };
  bridge?: Partial<BridgeControl>;
  audit?: (entry: AuditEntry) => Promise<void>;
  managerIds?: readonly string[];
  now?: Date;
};

const mention = (tags: string[]): Mention => ({ id: '9001', topic_id: '2001', tags }) as Mention;
const contact = (): Contact => ({ id: '7001', name: 'Ann', tags: [], customattributes: {} }) as Contact;

/** Ports that record every call, with harmless answers unless a test overrides one. */
export function fakeDeps(o: Overrides = {}): FakeDeps {
  const calls: PortCall[] = [];
  const audits: AuditEntry[] = [];
  const rec =
    <A extends unknown[], R>(port: string, impl: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      calls.push({ port, args });
      return impl(...args);
    };
  const e = o.engage ?? {};
  const b = o.bridge ?? {};
  const engage: CommandEngageClient = {
    mentions: { update: rec('mentions.update', e.mentions?.update ?? (async (_ref, updates) => mention(updates.tags))) },
    contacts: {
      get: rec('contacts.get', e.contacts?.get ?? (async () => contact())),
      update: rec('contacts.update', e.contacts?.update ?? (async () => contact())),
    },
    handover: {
      get: rec(
        'handover.get',
        e.handover?.get ??
          (async (ref) => ({ service: ref.service, service_id: ref.serviceId, owner: 'agents' as const, date: { updated: null } })),
      ),
    },
    businessHours: {
      listPages: () => {
        calls.push({ port: 'businessHours.listPages', args: [] });
        const list = e.businessHours?.list ?? (async () => []);
        return (async function* () {
          for (const schedule of await list()) yield { data: [schedule] };
        })();
      },
    },
  };
  const bridge: BridgeControl = {
    getOwner: rec('bridge.getOwner', b.getOwner ?? (async () => undefined)),
    setOwner: rec('bridge.setOwner', b.setOwner ?? (async (_k, owner) => ({ from: 'bot' as const, to: owner }))),
    pauseBot: rec('bridge.pauseBot', b.pauseBot ?? (async () => ({ changed: true }))),
    resumeBot: rec('bridge.resumeBot', b.resumeBot ?? (async () => ({ changed: true }))),
    openEscalations: rec('bridge.openEscalations', b.openEscalations ?? (async () => [])),
    surveyAnswers: rec('bridge.surveyAnswers', b.surveyAnswers ?? (async () => [])),
    health: rec(
      'bridge.health',
      b.health ?? (async () => ({ ingestionLagMs: 0, conversationsByOwner: {}, apiBudgetRemaining: null, botPausedForAll: false })),
    ),
    watchedTopicIds: rec('bridge.watchedTopicIds', b.watchedTopicIds ?? (async () => ['2001'])),
    releaseToAgents: rec('bridge.releaseToAgents', b.releaseToAgents ?? (async () => [])),
    forgetContact: rec(
      'bridge.forgetContact',
      b.forgetContact ?? (async (key) => ({ known: false, removed: {}, pseudonym: `${key.split('/')[0]}/c-0000000000` })),
    ),
  };
  return {
    calls,
    audits,
    engage,
    bridge,
    audit: {
      audit: async (entry) => {
        calls.push({ port: 'audit', args: [entry] });
        audits.push(entry);
        if (o.audit) await o.audit(entry);
      },
    },
    managerIds: o.managerIds ?? ['UMANAGER'],
    now: () => o.now ?? new Date('2026-11-23T10:00:00Z'),
  };
}

export const manager = { id: 'UMANAGER', name: 'Mia', transport: 'slack' } as const;
export const stranger = { id: 'USTRANGER', transport: 'slack' } as const;
