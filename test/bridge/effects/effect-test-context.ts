import { silentLogger } from '../../../src/log.js';
import { createMemoryStore } from '../../../src/storage/index.js';
import { createBridgeMetrics } from '../../../src/metrics/bridge-metrics.js';
import { Ownership } from '../../../src/bridge/ownership/ownership.js';
import { ReplyServices } from '../../../src/bridge/effects/reply-services.js';
import { EffectLines } from '../../../src/bridge/effects/effect-lines.js';
import type { BridgeContext } from '../../../src/bridge/bridge-context.js';
import type { BridgeEngage } from '../../../src/bridge/bridge-engage.js';
import type { EscalationNotice } from '../../../src/bridge/notifier.js';
import type { EffectPayload } from '../../../src/bridge/effects/effect-payload.js';
import type { EscalationFailures } from '../../../src/bridge/effects/outbox-runner.js';
import type { Store } from '../../../src/storage/index.js';

/** One call the fake service saw, in order. */
export interface SeenCall {
  readonly what: string;
  readonly args: unknown;
}

/** Overrides of the fake service: each answers as given or throws. */
export type FakeEngage = Record<string, Record<string, (...args: never[]) => unknown>>;

export interface EffectTestContext {
  readonly ctx: BridgeContext;
  readonly store: Store;
  readonly calls: SeenCall[];
  readonly notices: EscalationNotice[];
  readonly failedEscalations: Array<{ key: string; why: string }>;
  /** Records each handover failed for good in `failedEscalations` (the effect runner's third argument). */
  readonly escalations: EscalationFailures;
  setNow(ms: number): void;
  metric(name: string): Promise<number>;
}

const handoverItem = (owner: 'agents' | 'application') => ({ owner, date: { updated: 1 } });

/**
 * A bridge context around a memory store and a scripted stand-in for the service: effects can be performed
 * one by one and every call they make is recorded. Defaults answer like a healthy account.
 */
export function effectTestContext(overrides: FakeEngage = {}): EffectTestContext {
  let nowMs = Date.UTC(2026, 10, 18, 9, 0, 0);
  const now = () => nowMs;
  const calls: SeenCall[] = [];
  const notices: EscalationNotice[] = [];
  const failedEscalations: Array<{ key: string; why: string }> = [];
  const defaults: FakeEngage = {
    handover: {
      get: () => handoverItem('application'),
      toAgents: () => handoverItem('agents'),
      toApplication: () => handoverItem('application'),
    },
    mentions: { update: () => ({ id: '1', topic_id: '2001' }), get: () => ({ id: '1', topic_id: '2001', actions: [] }) },
    publisher: {
      services: () => ({ profiles: [], services: [{ type: 'whatsapp', service_id: '3225550100' }] }),
      add: () => ({ messages: [{ id: 'msg-1' }], publisher_mention: { id: 'pm-1' } }),
    },
    publisherMentions: { get: () => ({ id: 'pm-1' }), listPages: async function* () {} },
  };
  const engage: Record<string, Record<string, unknown>> = {};
  for (const [resource, methods] of Object.entries(defaults)) {
    engage[resource] = {};
    for (const [method, fn] of Object.entries({ ...methods, ...(overrides[resource] ?? {}) })) {
      engage[resource]![method] = (...args: unknown[]) => {
        calls.push({ what: `${resource}.${method}`, args });
        const result = (fn as (...a: unknown[]) => unknown)(...args);
        return method === 'listPages' ? result : Promise.resolve().then(() => result);
      };
    }
  }
  const store = createMemoryStore({ clock: now });
  const bridgeEngage = engage as unknown as BridgeEngage;
  const metrics = createBridgeMetrics({ defaultMetrics: false });
  const ownership = new Ownership({ store, engage: bridgeEngage, now, confirmAgeMs: 30_000 });
  const log = silentLogger();
  const notifier = {
    escalated: (n: EscalationNotice) => notices.push(n),
    escalationStuck: () => {},
    noticeUpdated: () => {},
    tokenRevoked: () => {},
    bridgePaused: () => {},
  };
  const performerDeps = {
    store,
    engage: bridgeEngage,
    ownership,
    replyServices: new ReplyServices(bridgeEngage, now),
    notifier,
    metrics,
    log,
    now,
  };
  const ctx = {
    store,
    engage: bridgeEngage,
    ownership,
    flows: {},
    now,
    log,
    metrics,
    notifier,
    performerDeps,
    hours: {},
    settings: {},
    health: { pausedForAll: false, revoked: false },
    clean: new Set<string>(),
    effectLines: new EffectLines(),
    wake: () => {},
  } as unknown as BridgeContext;
  const escalations: EscalationFailures = {
    escalationFailed: async (key, why) => {
      failedEscalations.push({ key, why });
    },
  };
  return {
    ctx,
    store,
    calls,
    notices,
    failedEscalations,
    escalations,
    setNow: (ms) => {
      nowMs = ms;
    },
    metric: async (name) => {
      const found = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
      return (found?.values ?? []).reduce((sum, v) => sum + Number(v.value), 0);
    },
  };
}

/** A conversation the bot holds, so its effects may run. */
export async function botOwns(store: Store, key: string, nowMs: number): Promise<void> {
  const [channel, serviceId] = key.split(':') as [string, string];
  await store.saveConversation({ key, channel, serviceId, owner: 'bot', ownerConfirmedAt: nowMs, transcript: [], updatedAt: nowMs });
}

export const TARGET = { topicId: '2001', mentionId: '9001' };

export function escalatePayload(note = 'Customer asked for a person.'): EffectPayload {
  return {
    kind: 'escalate',
    target: TARGET,
    action: {
      type: 'escalate',
      reason: 'explicit',
      priority: 'high',
      tags: ['bot-escalated'],
      note,
      packet: {
        reason: 'explicit',
        trigger: 'a human please',
        collected: {},
        sentimentTrend: 'steady',
        sentiments: [],
        summary: 'Wants a person.',
        channel: 'whatsapp',
        stretchStartedAt: 0,
        transcript: [],
        omittedLines: 0,
      },
    },
  };
}
