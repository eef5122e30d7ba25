import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { EngageError } from '../errors/engage-error.js';
import { errorFromResponse } from '../errors/error-from-response.js';
import { ConnectionError, MalformedResponseError, RateLimitError } from '../errors/error-kinds.js';
import type { EngageLogger } from '../logger.js';
import { ConcurrencyGate, type ConcurrencyLimits, type RequestClass } from '../policy/request-classes.js';
import { decideRetry, type RetryPolicy } from '../policy/retry-policy.js';
import type { UserAllocation } from '../policy/user-allocation.js';
import type { ServiceClock } from '../policy/service-clock.js';
import { redactSecret, redactUrl } from '../redact-url.js';
import type { Envelope } from '../schemas/envelope.js';
import { buildRequest, type RequestTarget } from './build-request.js';
import type { Operation } from './operation.js';
import { describeIssues, envelopeFailureStatus, readEnvelope } from './read-envelope.js';
import type { ClientStats, RequestEvent } from './request-event.js';
import { onStop } from './on-stop.js';
import { NetworkFailure, ResponseTooLarge, sendHttp, type HttpAnswer, type Timeouts } from './send-http.js';

export interface ExecutorDeps {
  target: RequestTarget;
  dispatcher: Dispatcher;
  timeouts: Readonly<Timeouts>;
  clock: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  logger: EngageLogger;
  retry: Readonly<RetryPolicy>;
  allocation: UserAllocation;
  /** Learns the service's clock from the `Date` of every answer. */
  serviceClock?: ServiceClock;
  concurrency: Readonly<ConcurrencyLimits>;
  onRequest?: ((event: RequestEvent) => void) | undefined;
  /** Aborted when the client stops: requests in flight end at once, waits are cut short, nothing is retried. */
  signal?: AbortSignal | undefined;
  maxResponseBytes?: number | undefined;
}

type Attempt = { ok: true; answer: HttpAnswer; envelope: Envelope | null } | { ok: false; error: EngageError };

/** Sends operations with pacing, concurrency classes, retries and error mapping. */
export class RequestExecutor {
  private readonly gates: Record<RequestClass, ConcurrencyGate>;
  private counts = { requests: 0, failures: 0, retries: 0 };

  constructor(private readonly deps: ExecutorDeps) {
    const c = deps.concurrency;
    this.gates = { read: new ConcurrencyGate(c.read), write: new ConcurrencyGate(c.write), handover: new ConcurrencyGate(c.handover) };
  }

  /** Runs an operation to a successful answer (retrying when allowed) or throws an EngageError. */
  async send(op: Operation): Promise<{ answer: HttpAnswer; envelope: Envelope | null }> {
    for (let attempt = 1; ; attempt += 1) {
      const result = await this.attemptOnce(op, attempt);
      if (result.ok) return result;
      const decision = decideRetry({
        error: result.error,
        attempt,
        idempotent: op.idempotent,
        policy: this.deps.retry,
        random: this.deps.random,
      });
      if (!decision.retry || this.deps.signal?.aborted) throw result.error;
      this.counts.retries += 1;
      this.deps.logger.warn(
        { endpoint: op.template, method: op.method, code: result.error.code, attempt, delayMs: decision.delayMs },
        'Engage call failed; retrying',
      );
      await this.pause(decision.delayMs);
    }
  }

  /** Runs a JSON operation and parses `response` with the schema; a mismatch names the field. */
  async json<S extends z.ZodType>(op: Operation, schema: S): Promise<z.output<S>> {
    const { envelope } = await this.send(op);
    const parsed = schema.safeParse(envelope?.response);
    if (parsed.success) return parsed.data;
    throw new MalformedResponseError({
      method: op.method,
      path: this.safePath(op),
      status: 200,
      description: describeIssues(parsed.error, 'response'),
    });
  }

  stats(): ClientStats {
    const budget = this.deps.allocation.snapshot();
    return {
      ...this.counts,
      inFlight: { read: this.gates.read.inFlight, write: this.gates.write.inFlight, handover: this.gates.handover.inFlight },
      queued: { read: this.gates.read.queued, write: this.gates.write.queued, handover: this.gates.handover.queued },
      budget: { remaining: budget.remaining, resetAtMs: budget.resetAtMs, blockedUntilMs: budget.blockedUntilMs },
    };
  }

  private async attemptOnce(op: Operation, attempt: number): Promise<Attempt> {
    const request = buildRequest(op, this.deps.target);
    const release = await this.gates[op.requestClass].acquire();
    let result: Attempt;
    let status: number | null = null;
    let startedMs = this.deps.clock();
    try {
      await this.waitForBudget();
      if (this.deps.signal?.aborted) throw new NetworkFailure('aborted', this.deps.signal.reason);
      startedMs = this.deps.clock();
      this.counts.requests += 1;
      const answer = await sendHttp(this.deps.dispatcher, request, this.deps.timeouts, {
        signal: this.deps.signal,
        maxResponseBytes: this.deps.maxResponseBytes,
      });
      status = answer.status;
      this.deps.allocation.observe(answer.headers, this.deps.clock());
      result = this.judge(op, answer);
      // Only a good answer is surely the service's own (an error page may come from a proxy with its own clock).
      if (result.ok) this.deps.serviceClock?.observe(answer.headers, this.deps.clock());
    } catch (error) {
      if (error instanceof ResponseTooLarge) {
        status = error.status;
        const context = { method: op.method, path: this.safePath(op), status: error.status, description: error.message };
        result = { ok: false, error: new MalformedResponseError(context) };
        return this.finish(op, attempt, startedMs, status, result);
      }
      if (!(error instanceof NetworkFailure)) throw error;
      result = { ok: false, error: new ConnectionError({ method: op.method, path: this.safePath(op), cause: error.cause }, error.reason) };
    } finally {
      release();
    }
    return this.finish(op, attempt, startedMs, status, result);
  }

  private finish(op: Operation, attempt: number, startedMs: number, status: number | null, result: Attempt): Attempt {
    const durationMs = Math.max(0, this.deps.clock() - startedMs);
    if (!result.ok) {
      this.counts.failures += 1;
      if (result.error instanceof RateLimitError) this.deps.allocation.block(this.deps.clock() + result.error.retryAfterMs);
    }
    const outcome = result.ok ? 'ok' : result.error.code;
    // One object for both: the debug line is usually off, and building its fields for nothing on every call is waste.
    const event: RequestEvent = { method: op.method, endpoint: op.template, status, durationMs, attempt, outcome };
    this.deps.logger.debug(event, 'Engage call');
    this.deps.onRequest?.(event);
    return result;
  }

  /** Classifies an answer: success (with the parsed envelope for JSON), or the error it means. */
  private judge(op: Operation, answer: HttpAnswer): Attempt {
    const fail = (status: number): Attempt => ({
      ok: false,
      error: errorFromResponse({
        method: op.method,
        path: this.safePath(op),
        status,
        headers: answer.headers,
        bodyText: redactSecret(answer.bodyText, this.deps.target.accessToken),
        nowMs: this.deps.clock(),
      }),
    });
    if (answer.status < 200 || answer.status >= 300) return fail(answer.status);
    if (op.format === 'xml') return { ok: true, answer, envelope: null };
    const reading = readEnvelope(answer.bodyText);
    if (!reading.ok && op.doneOnAny2xx) return { ok: true, answer, envelope: null };
    if (!reading.ok) {
      const error = new MalformedResponseError(
        { method: op.method, path: this.safePath(op), status: answer.status, description: reading.problem },
        reading.unreadable,
      );
      return { ok: false, error };
    }
    if (envelopeFailureStatus(reading.envelope) !== null) return fail(answer.status);
    this.logWarnings(op, reading.envelope);
    return { ok: true, answer, envelope: reading.envelope };
  }

  private logWarnings(op: Operation, envelope: Envelope): void {
    const messages = envelope.meta?.messages ?? [];
    if (messages.length === 0) return;
    const texts = messages.map((m) => redactSecret(m.text ?? '', this.deps.target.accessToken));
    this.deps.logger.warn({ method: op.method, endpoint: op.template, messages: texts }, 'Engage answered with warnings');
  }

  /** Waits (injected sleep) until this user's allocation lets a request go. */
  private async waitForBudget(): Promise<void> {
    for (;;) {
      const waitMs = this.deps.allocation.tryTake(this.deps.clock());
      if (waitMs <= 0 || this.deps.signal?.aborted) return;
      await this.pause(waitMs);
    }
  }

  /** The injected sleep, cut short when the client stops. */
  private async pause(ms: number): Promise<void> {
    const signal = this.deps.signal;
    if (!signal) return this.deps.sleep(ms);
    if (signal.aborted) return;
    let detach = (): void => undefined;
    const aborted = new Promise<void>((resolve) => {
      detach = onStop(signal, resolve);
    });
    try {
      await Promise.race([this.deps.sleep(ms), aborted]);
    } finally {
      detach();
    }
  }

  private safePath(op: Operation): string {
    // The path only: query values (message text, filters) can hold customer data.
    const request = buildRequest(op, this.deps.target);
    return redactSecret(redactUrl(request.url.pathname), this.deps.target.accessToken);
  }
}
