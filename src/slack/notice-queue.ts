import type { SlackLogger } from './ports.js';

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface NoticeQueueOptions {
  logger: SlackLogger;
  /** waits out a Retry-After; injected so tests never wait */
  sleep: Sleep;
  /** pending notices kept at most; the oldest is dropped first */
  maxSize?: number;
  /** how often one notice may be rate limited before it is given up */
  maxRateLimitedAttempts?: number;
}

export interface NoticeQueue {
  /** Never throws and never waits: the notice is sent in the background. */
  push(label: string, send: () => Promise<unknown>): void;
  size(): number;
  /** Resolves when nothing is pending or running (for shutdown and tests). */
  idle(): Promise<void>;
  stop(): void;
}

interface Pending {
  label: string;
  send: () => Promise<unknown>;
  rateLimited: number;
}

/** Seconds to wait when `error` is Slack's rate-limit answer (web-api's `rejectRateLimitedCalls`). */
export function retryAfterSeconds(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, retryAfter } = error as { code?: unknown; retryAfter?: unknown };
  if (code !== 'slack_webapi_rate_limited_error') return undefined;
  return typeof retryAfter === 'number' && Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : 1;
}

/**
 * One worker sends notices in order. A 429 pauses the whole queue for Retry-After (Slack limits per
 * channel and per workspace, so the next notice would be refused too); anything else drops the notice
 * with a log line. Callers (escalations, commands) never wait on Slack.
 */
export function createNoticeQueue(options: NoticeQueueOptions): NoticeQueue {
  const maxSize = options.maxSize ?? 500;
  const maxRateLimitedAttempts = options.maxRateLimitedAttempts ?? 5;
  const { logger } = options;
  const pending: Pending[] = [];
  const abort = new AbortController();
  let running: Promise<void> | undefined;

  async function sendOne(item: Pending): Promise<'done' | 'again'> {
    try {
      await item.send();
      return 'done';
    } catch (error) {
      const wait = retryAfterSeconds(error);
      if (wait === undefined) {
        logger.warn({ notice: item.label, err: describe(error) }, 'Slack notice failed and was dropped');
        return 'done';
      }
      item.rateLimited += 1;
      if (item.rateLimited >= maxRateLimitedAttempts) {
        logger.warn({ notice: item.label, attempts: item.rateLimited }, 'Slack notice dropped after repeated rate limiting');
        return 'done';
      }
      logger.info({ notice: item.label, retryAfterSeconds: wait }, 'Slack rate limited the notices; waiting');
      try {
        await options.sleep(wait * 1000, abort.signal);
      } catch {
        // aborted by stop(): the loop sees the flag and ends
      }
      return 'again';
    }
  }

  async function work(): Promise<void> {
    while (pending.length > 0 && !abort.signal.aborted) {
      const item = pending[0] as Pending;
      const outcome = await sendOne(item);
      // the head may have been dropped by push() while we were sending; only remove it if still there
      if (outcome === 'done' && pending[0] === item) pending.shift();
    }
  }

  function kick(): void {
    if (running !== undefined || abort.signal.aborted) return;
    running = work()
      .catch((error: unknown) => logger.error({ err: describe(error) }, 'Slack notice queue failed'))
      .finally(() => {
        running = undefined;
        if (pending.length > 0 && !abort.signal.aborted) kick();
      });
  }

  return {
    push(label, send) {
      if (abort.signal.aborted) {
        logger.warn({ notice: label }, 'Slack notice dropped: the Slack app is stopped');
        return;
      }
      // keep the head while it is in flight, so a full queue drops the oldest *waiting* notice
      if (pending.length >= maxSize) {
        const dropped = pending.splice(running !== undefined && pending.length > 1 ? 1 : 0, 1)[0];
        logger.warn({ notice: dropped?.label, maxSize }, 'Slack notice queue full: dropped the oldest notice');
      }
      pending.push({ label, send, rateLimited: 0 });
      kick();
    },
    size: () => pending.length,
    async idle() {
      while (running !== undefined) await running;
    },
    stop() {
      if (pending.length > 0) logger.warn({ dropped: pending.length }, 'Slack app stopping: pending notices dropped');
      pending.length = 0;
      abort.abort();
    },
  };
}

/** The error's message only: never the request, which carries the token. */
function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function realSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
