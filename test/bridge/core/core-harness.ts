// A whole bridge (createBridge) on the memory store, with a fake clock and a scripted stand-in for the Engage API:
// the worker, the outbox and the performers run as in production, with no server and no timer of their own.
import { readFileSync } from 'node:fs';
import { parseFlows, type Flows, type LanguageGuesser } from '../../../src/bot/index.js';
import { createBridge, type Bridge } from '../../../src/bridge/create-bridge.js';
import type { BridgeEngage } from '../../../src/bridge/bridge-engage.js';
import type { BridgeSettings } from '../../../src/bridge/bridge-context.js';
import type { InboundPayload } from '../../../src/bridge/intake/inbound-item.js';
import { silentNotifier, type EscalationNotice } from '../../../src/bridge/notifier.js';
import { createBridgeMetrics } from '../../../src/metrics/bridge-metrics.js';
import { silentLogger } from '../../../src/log.js';
import { createMemoryStore, type Store } from '../../../src/storage/index.js';

export const flows: Flows = parseFlows(readFileSync(new URL('../../../config/flows.yaml', import.meta.url), 'utf8'), 'config/flows.yaml');

export const TOPIC = '2001';
export const KEY = 'whatsapp:32470000501';

export const settings: BridgeSettings = {
  channels: ['whatsapp'],
  topicIds: [TOPIC],
  pollIntervalMs: 1000,
  lookbackSeconds: 60,
  backfillMinutes: 0,
  ownerConfirmAgeMs: 30_000,
  idleReturnMinutes: 30,
  stuckEscalationMinutes: 10,
  maxConcurrentContacts: 4,
  transcriptLines: 20,
  businessHoursSchedule: undefined,
};

/** A call the fake service saw, in order. */
export interface Call {
  readonly what: string;
  readonly args: readonly unknown[];
}

/** A fake clock the store and the bridge share: it moves only when a test moves it. */
export class FakeClock {
  constructor(public ms = Date.UTC(2026, 10, 23, 10, 0, 0)) {}
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

/**
 * The service's side: who owns each contact (handover), what was published, and a way to make the next calls of a
 * method fail. Answers like a healthy account by default.
 */
export class FakeEngage {
  readonly calls: Call[] = [];
  readonly owners = new Map<string, 'application' | 'agents'>();
  /** Notes written on the mention (one mention is enough for these tests). */
  readonly notes: string[] = [];
  /** Per `resource.method`: errors thrown by the next calls, one per call. */
  readonly failures = new Map<string, unknown[]>();

  /** Per `resource.method`: while held, its answers wait until `release` (calls still count as made, and in flight). */
  private readonly held = new Map<string, Array<() => void>>();
  /** Calls made and not answered yet, per `resource.method`. */
  readonly inFlight = new Map<string, number>();

  hold(what: string): void {
    if (!this.held.has(what)) this.held.set(what, []);
  }

  /** Answers every held call of `what` and stops holding it. */
  release(what: string): void {
    const waiting = this.held.get(what) ?? [];
    this.held.delete(what);
    for (const go of waiting) go();
  }

  /** Answers every held call (a failed test must not leave a run waiting forever). */
  releaseAll(): void {
    for (const what of [...this.held.keys()]) this.release(what);
  }

  failNext(what: string, ...errors: unknown[]): void {
    this.failures.set(what, [...(this.failures.get(what) ?? []), ...errors]);
  }

  count(what: string): number {
    return this.calls.filter((c) => c.what === what).length;
  }

  /** What the bot published (calls the service took, not refused ones), in order. */
  readonly published: Array<{ text: string; mentionId: string }> = [];

  replies(): string[] {
    return this.published.map((p) => p.text);
  }

  client(): BridgeEngage {
    const published = this.published;
    const ownerOf = (ref: { service: string; serviceId: string }) => this.owners.get(`${ref.service}:${ref.serviceId}`);
    const api: Record<string, Record<string, (...args: never[]) => unknown>> = {
      handover: {
        get: (ref: { service: string; serviceId: string }) => ({
          owner: ownerOf(ref) ?? 'agents',
          date: { updated: ownerOf(ref) ? 1 : null },
        }),
        toAgents: (ref: { service: string; serviceId: string }) => {
          this.owners.set(`${ref.service}:${ref.serviceId}`, 'agents');
          return { owner: 'agents', date: { updated: 2 } };
        },
        toApplication: (ref: { service: string; serviceId: string }) => {
          this.owners.set(`${ref.service}:${ref.serviceId}`, 'application');
          return { owner: 'application', date: { updated: 2 } };
        },
      },
      mentions: {
        update: (_ref: unknown, body: { actions?: Array<{ type: string; extra: string }> }) => {
          for (const a of body.actions ?? []) if (a.type === 'note') this.notes.push(a.extra);
          return { id: '1', topic_id: TOPIC };
        },
        get: () => ({ id: '1', topic_id: TOPIC, actions: this.notes.map((extra) => ({ type: 'note', extra })) }),
      },
      contacts: { get: () => ({ tags: [] }), update: () => ({}) },
      publisher: {
        services: () => ({ profiles: [], services: [{ type: 'whatsapp', service_id: '3225550100' }] }),
        add: (r: { message: string; mentionId: string }) => {
          this.published.push({ text: r.message, mentionId: r.mentionId });
          const n = this.published.length;
          return { messages: [{ id: `msg-${n}` }], publisher_mention: { id: `pm-${n}`, user_id: 'u1' } };
        },
      },
      // What was published, as the service lists it: a re-check after a crash finds a reply by its in_reply_to.
      publisherMentions: {
        get: (id: string) => {
          const n = Number(id.slice(3));
          const p = this.published[n - 1];
          return { id, ...(p ? { in_reply_to: { id: p.mentionId, topic_id: TOPIC } } : {}) };
        },
        listPages: async function* (this: void) {
          yield { data: published.map((p, i) => ({ id: `pm-${i + 1}`, message: { content: p.text } })) };
        },
      },
      topics: { list: () => ({ data: [{ id: TOPIC }] }) },
      users: { get: (id: string) => ({ id, name: 'Bot' }) },
    };
    const client: Record<string, Record<string, unknown>> = {};
    for (const [resource, methods] of Object.entries(api)) {
      client[resource] = {};
      for (const [method, fn] of Object.entries(methods)) {
        const what = `${resource}.${method}`;
        client[resource]![method] = (...args: unknown[]) => {
          this.calls.push({ what, args });
          const queued = this.failures.get(what);
          if (queued && queued.length > 0) {
            const err = queued.shift();
            return method === 'listPages'
              ? (() => {
                  throw err;
                })()
              : Promise.reject(err);
          }
          if (method === 'listPages') return (fn as (...a: unknown[]) => unknown)(...args);
          const waiting = this.held.get(what);
          if (!waiting) return Promise.resolve((fn as (...a: unknown[]) => unknown)(...args));
          this.inFlight.set(what, (this.inFlight.get(what) ?? 0) + 1);
          return new Promise<void>((go) => waiting.push(go)).then(() => {
            this.inFlight.set(what, (this.inFlight.get(what) ?? 1) - 1);
            return (fn as (...a: unknown[]) => unknown)(...args);
          });
        };
      }
    }
    return client as unknown as BridgeEngage;
  }
}

export interface CoreWorld {
  readonly clock: FakeClock;
  readonly store: Store;
  readonly engage: FakeEngage;
  readonly notices: EscalationNotice[];
  bridge: Bridge;
  /** A new process on the same store and the same service: what a restart after kill -9 would find. */
  restart(): Promise<Bridge>;
}

export async function coreWorld(
  o: {
    store?: Store;
    clock?: FakeClock;
    engage?: FakeEngage;
    settings?: Partial<BridgeSettings>;
    flows?: Flows;
    languageGuesser?: () => Promise<LanguageGuesser>;
  } = {},
): Promise<CoreWorld> {
  const clock = o.clock ?? new FakeClock();
  const store = o.store ?? createMemoryStore({ clock: clock.now });
  const engage = o.engage ?? new FakeEngage();
  const notices: EscalationNotice[] = [];
  const make = () =>
    createBridge({
      store,
      engage: engage.client(),
      flows: o.flows ?? flows,
      ...(o.languageGuesser ? { languageGuesser: o.languageGuesser } : {}),
      settings: { ...settings, ...o.settings },
      log: silentLogger(),
      metrics: createBridgeMetrics({ defaultMetrics: false }),
      now: clock.now,
      notifier: { ...silentNotifier, escalated: (n) => notices.push(n) },
    });
  const world: CoreWorld = {
    clock,
    store,
    engage,
    notices,
    bridge: await make(),
    async restart() {
      world.bridge = await make();
      return world.bridge;
    },
  };
  return world;
}

let nextMention = 9000;

/** Records an inbound customer message for a contact, as the poller would, and returns its mention id. */
export async function customerWrites(store: Store, key: string, text: string, addedAt: number): Promise<string> {
  const id = String(++nextMention);
  const payload: InboundPayload = { kind: 'customer', text, clicked: [], name: 'Ann' };
  await store.recordInbound({ id, topicId: TOPIC, key, addedAt, payload });
  return id;
}

/** Runs the contact's worker and waits until no contact has work left. */
export async function drain(bridge: Bridge, key: string): Promise<void> {
  bridge.dispatcher.schedule(key);
  await bridge.idle();
}
