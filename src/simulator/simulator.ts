import { BoundedLog } from './bounded-log.js';
import { defaultSeed } from './default-seed.js';
import { seededRandom, type Faults } from './faults.js';
import { parseSeed } from './load-seed-file.js';
import type { OutboundEntry, RequestEntry } from './model.js';
import { presentMention } from './present-mention.js';
import { RateLimiter, type RateLimit } from './rate-limiter.js';
import { Router } from './router.js';
import { allRoutes } from './routes/all-routes.js';
import { NO_REALISM, type Realism, type Runtime } from './runtime.js';
import type { Seed, SeedInput } from './seed-schema.js';
import { CONTROL_VERSION } from './sim-control.js';
import { SimState } from './sim-state.js';
import { WebhookPusher, type FetchLike, type Sleep } from './webhook-pusher.js';

export interface SimulatorOptions {
  /** The account to serve (default: the demo seed). Validated. */
  seed?: SeedInput;
  /** Real clock in ms (default `Date.now`). */
  clock?: () => number;
  /** Randomness for realism delays (default `Math.random`). */
  random?: () => number;
  /** Randomness for fault dice (default: `random`); `/_sim/faults {seed}` replaces it. */
  faultRandom?: () => number;
  realism?: Partial<Realism>;
  faults?: Faults;
  sleep?: Sleep;
  fetch?: FetchLike;
  /** Entries kept in each of the request and outbound logs. */
  logCapacity?: number;
}

const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The in-memory Engage account: data, clocks, switches and logs (the HTTP layer lives in `listen.ts`). */
export class Simulator implements Runtime {
  readonly seed: Seed;
  state: SimState;
  realism: Realism;
  faults: Faults;
  faultRandom: () => number;
  readonly outbound: BoundedLog<OutboundEntry>;
  readonly requests: BoundedLog<RequestEntry>;
  readonly limiter: RateLimiter;
  readonly router = new Router(allRoutes);
  readonly webhooks: WebhookPusher;
  readonly sleep: Sleep;
  private fixedNow: number | undefined;
  private base = 'http://127.0.0.1';
  private readonly clock: () => number;
  private readonly rand: () => number;

  constructor(private readonly opts: SimulatorOptions = {}) {
    this.seed = parseSeed(opts.seed ?? defaultSeed, 'option');
    this.state = new SimState(this.seed);
    this.clock = opts.clock ?? Date.now;
    this.rand = opts.random ?? Math.random;
    this.faultRandom = opts.faultRandom ?? this.rand;
    this.realism = { ...NO_REALISM, ...opts.realism };
    this.faults = { ...opts.faults };
    this.outbound = new BoundedLog(opts.logCapacity);
    this.requests = new BoundedLog(opts.logCapacity);
    this.limiter = new RateLimiter(this.seed.rate_limit);
    this.applySeedLimits();
    this.sleep = opts.sleep ?? realSleep;
    const fetchFn: FetchLike = opts.fetch ?? ((url, init) => fetch(url, init));
    this.webhooks = new WebhookPusher(fetchFn, this.sleep);
  }

  now(): number {
    return this.ownNow() + this.realism.clock_offset_seconds;
  }

  /** The simulator's own clock in UNIX seconds (what `/_sim/clock` sets), without the service's offset. */
  ownNow(): number {
    return this.fixedNow ?? Math.floor(this.clock() / 1000);
  }

  realMs(): number {
    return this.clock();
  }

  random(): number {
    return this.rand();
  }

  faultRoll(): number {
    return this.faultRandom();
  }

  baseUrl(): string {
    return this.base;
  }

  setBaseUrl(url: string): void {
    this.base = url.replace(/\/$/, '');
  }

  onInbound(mentionId: string, topicId: number): void {
    const m = this.state.mentions.get(mentionId, topicId);
    if (m) this.webhooks.push([presentMention(this, m, { version: CONTROL_VERSION })]);
  }

  /** Fixes the simulated clock (UNIX seconds); `undefined` returns to real time. */
  setClock(nowSeconds: number | undefined): void {
    this.fixedNow = nowSeconds;
  }

  setFaults(faults: Faults): void {
    this.faults = { ...faults };
    if (faults.seed !== undefined) this.faultRandom = seededRandom(faults.seed);
  }

  setRealism(realism: Partial<Realism>): void {
    this.realism = { ...this.realism, ...realism };
  }

  setRateLimit(userId: string | null, limit: RateLimit | null): void {
    this.limiter.configure(userId, limit);
  }

  addToken(token: string, userId: string, scopes: readonly string[]): void {
    this.state.tokens.set(token, { token, userId, scopes: new Set(scopes), revoked: false });
  }

  /** A password change: every token of the user stops working. */
  revoke(userId: string): number {
    let n = 0;
    for (const t of this.state.tokens.values()) {
      if (t.userId === userId && !t.revoked) {
        t.revoked = true;
        n += 1;
      }
    }
    return n;
  }

  /** Back to the seed and the options the simulator was created with; log sequence numbers keep rising. */
  reset(): void {
    this.state = new SimState(this.seed);
    this.realism = { ...NO_REALISM, ...this.opts.realism };
    this.faults = { ...this.opts.faults };
    this.faultRandom = this.opts.faultRandom ?? this.rand;
    this.fixedNow = undefined;
    this.limiter.resetAll(this.seed.rate_limit);
    this.applySeedLimits();
    this.outbound.clear();
    this.requests.clear();
    this.webhooks.setUrl(null);
  }

  private applySeedLimits(): void {
    for (const [userId, limit] of Object.entries(this.seed.user_rate_limits)) this.limiter.configure(userId, limit);
  }
}
