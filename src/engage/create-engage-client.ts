import type { Dispatcher } from 'undici';
import type { EngageLogger } from './logger.js';
import { noopLogger } from './logger.js';
import { DEFAULT_HANDOVER_SERVICES } from './channel-services.js';
import { defaultRateLimitRegistry, type RateLimitRegistry } from './policy/rate-limit-registry.js';
import { DEFAULT_CONCURRENCY, type ConcurrencyLimits } from './policy/request-classes.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './policy/retry-policy.js';
import { cannedResponsesResource, meResource, tagsResource, toolsResource, topicsResource } from './resources/account-lists.js';
import { businessHoursResource } from './resources/business-hours.js';
import { contactsResource } from './resources/contacts.js';
import { handoverResource } from './resources/handover.js';
import { mentionsResource } from './resources/mentions.js';
import { profileGroupsResource } from './resources/profile-groups.js';
import { publisherMentionsResource } from './resources/publisher-mentions.js';
import { publisherResource } from './resources/publisher.js';
import { usersResource } from './resources/users.js';
import type { ResourceContext } from './resources/resource-context.js';
import { rawResource } from './resources/raw.js';
import { ConfigurationError, parseBaseUrl } from './transport/base-url.js';
import { DEFAULT_MAX_PAGES } from './transport/iterate-pages.js';
import type { RequestEvent } from './transport/request-event.js';
import { ServiceClock } from './policy/service-clock.js';
import { RequestExecutor } from './transport/request-executor.js';
import { createDefaultDispatcher, DEFAULT_TIMEOUTS, type Timeouts } from './transport/send-http.js';

export const DEFAULT_BASE_URL = 'https://api.engagor.com';
export const DEFAULT_API_VERSION = '20210601';
/** How long `close()` lets requests in flight finish before it drops them. */
const CLOSE_GRACE_MS = 2_000;

export interface EngageClientOptions {
  /** Default `https://api.engagor.com`; plain HTTP only for loopback hosts. */
  baseUrl?: string;
  accountId: string;
  accessToken: string;
  /** The `version` parameter sent on every request (YYYYMMDD). */
  version?: string;
  /** An undici dispatcher (e.g. `MockAgent` in tests); default: a keep-alive Agent, TLS ≥ 1.2. */
  dispatcher?: Dispatcher;
  /** Epoch milliseconds. */
  clock?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** A number in [0, 1), for jitter. */
  random?: () => number;
  logger?: EngageLogger;
  retry?: Partial<RetryPolicy>;
  rateLimit?: {
    /** Shared by every client of the process by default, so tokens of one user share one allocation. */
    registry?: RateLimitRegistry;
    /** Which user the token belongs to; default the token itself (hashed). */
    userKey?: string;
    concurrency?: Partial<ConcurrencyLimits>;
  };
  timeouts?: Partial<Timeouts>;
  /** Larger answers are cut off and count as malformed (default 16 MiB). */
  maxResponseBytes?: number;
  /** Guard for `listPages`: more pages than this is an error. */
  maxPages?: number;
  /** `{service}` values the handover endpoints accept. */
  handoverServices?: readonly string[];
  /** Called after every attempt, for metrics. */
  onRequest?: (event: RequestEvent) => void;
}

export type EngageClient = ReturnType<typeof createEngageClient>;

/** Builds the Engage API client; nothing is sent until a method is called. */
export function createEngageClient(options: EngageClientOptions) {
  const baseUrl = parseBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL);
  const version = options.version ?? DEFAULT_API_VERSION;
  if (!/^\d{8}$/.test(version)) throw new ConfigurationError(`version must be a date like 20210601 (got "${version}")`);
  if (options.accountId.trim() === '') throw new ConfigurationError('accountId must not be empty');
  if (options.accessToken.trim() === '' || /\s/.test(options.accessToken)) {
    throw new ConfigurationError('the access token must be a non-empty string without spaces');
  }
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const concurrency = { ...DEFAULT_CONCURRENCY, ...options.rateLimit?.concurrency };
  // One connection per call the classes let be in flight (a smaller pool would queue calls their class let go).
  const connections = concurrency.read + concurrency.write + concurrency.handover;
  const ownDispatcher = options.dispatcher === undefined ? createDefaultDispatcher(timeouts, connections) : undefined;
  const registry = options.rateLimit?.registry ?? defaultRateLimitRegistry();
  const stopping = new AbortController();
  const clock = options.clock ?? Date.now;
  const serviceClock = new ServiceClock(clock);
  const executor = new RequestExecutor({
    target: { baseUrl, accountId: options.accountId, accessToken: options.accessToken, version },
    dispatcher: options.dispatcher ?? (ownDispatcher as Dispatcher),
    timeouts,
    clock,
    serviceClock,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    random: options.random ?? Math.random,
    logger: options.logger ?? noopLogger,
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    allocation: registry.allocationFor(options.rateLimit?.userKey ?? options.accessToken),
    concurrency,
    onRequest: options.onRequest,
    signal: stopping.signal,
    maxResponseBytes: options.maxResponseBytes,
  });
  const ctx: ResourceContext = {
    executor,
    version,
    maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
    handoverServices: options.handoverServices ?? DEFAULT_HANDOVER_SERVICES,
  };
  return {
    handover: handoverResource(ctx),
    contacts: contactsResource(ctx),
    mentions: mentionsResource(ctx),
    publisher: publisherResource(ctx),
    publisherMentions: publisherMentionsResource(ctx),
    users: usersResource(ctx),
    businessHours: businessHoursResource(ctx),
    profileGroups: profileGroupsResource(ctx),
    cannedResponses: cannedResponsesResource(ctx),
    topics: topicsResource(ctx),
    tags: tagsResource(ctx),
    me: meResource(ctx),
    tools: toolsResource(ctx),
    /** Any endpoint, answer as text (e.g. `format: 'xml'`). */
    raw: rawResource(ctx),
    /** Counters and the last known rate-limit budget of this client's user. */
    stats: () => executor.stats(),
    /**
     * The service's time now (epoch ms) as its latest answer's `Date` header tells it, or undefined before any.
     * Compare the service's timestamps with this, never with the local clock.
     */
    serviceNowMs: (): number | undefined => serviceClock.nowMs(),
    /**
     * Shutdown past its deadline: every request in flight ends now with a `ConnectionError` (reason `aborted`), and
     * so does every later one, so what they were doing stays pending for the next start.
     */
    abortInFlight: (): void => stopping.abort(new Error('the Engage client is stopping')),
    /** Closes the connection pool the client created (an injected dispatcher is left to its owner). */
    close: async (): Promise<void> => {
      if (!ownDispatcher) return;
      // Requests in flight get a grace period to finish; a server that never answers must not hold us for ever.
      // (undici's graceful close forgets its connections, so a later destroy could no longer reach them.)
      const busy = () => Object.values(executor.stats().inFlight).some((n) => n > 0);
      const deadline = Date.now() + CLOSE_GRACE_MS;
      while (busy() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      if (busy()) await ownDispatcher.destroy();
      else await ownDispatcher.close();
    },
  };
}
