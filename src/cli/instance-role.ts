import type { Logger } from 'pino';
import type { Bridge } from '../bridge/create-bridge.js';
import type { CommandDeps } from '../commands/index.js';
import type { Store } from '../storage/index.js';

/** `active`: holds the lease and does the work; `standby`: serves health and waits to take over. */
export type InstanceRole = 'active' | 'standby';

/** What exists only while this instance is active (holds the store): the bridge and what drives it. */
export interface ActivePart {
  readonly store: Store;
  readonly bridge: Bridge;
  readonly engage: { abortInFlight(): void };
  readonly commandDeps: CommandDeps;
  readonly slack?: { port: number | null };
  /** `shutdown`: the process stops (with BRIDGE_ON_STOP and the deadline); `step-down`: stop acting at once. */
  stop(mode: 'shutdown' | 'step-down'): Promise<void>;
}

export interface RoleSupervisorOptions<T> {
  readonly log: Logger;
  /** Aborted when the process stops: no more takeovers. */
  readonly signal: AbortSignal;
  /**
   * Opens the store (waiting as a standby while another instance holds the lease) and starts the work.
   * `lost` is to be called when the lease is lost, at any time, even before this resolves.
   */
  activate(lost: () => void): Promise<T>;
  /** Stops acting at once (no Engage calls, no writes) and closes what `activate` opened. */
  stepDown(part: T): Promise<void>;
  onRole?(role: InstanceRole): void;
  /** How long to wait before trying again when becoming active failed (e.g. the database is unreachable). */
  readonly retryMs: number;
}

/**
 * Keeps an instance in one of two roles: after a step-down (the lease lapsed: database unreachable, network
 * cut) it goes back to standby and takes over again when it can, while whatever the instance serves in front
 * (health, metrics, the command socket) stays up.
 */
export class RoleSupervisor<T> {
  private part: T | undefined;
  private last: T | undefined;
  private cycle: Promise<void> = Promise.resolve();

  constructor(private readonly o: RoleSupervisorOptions<T>) {}

  /** The active part; undefined while this instance is a standby. */
  get current(): T | undefined {
    return this.part;
  }

  /** The last part that was active (kept after a step-down, for callers that want what ran). */
  get latest(): T | undefined {
    return this.last;
  }

  get role(): InstanceRole {
    return this.part === undefined ? 'standby' : 'active';
  }

  /** The first activation; rejects as `activate` does. */
  begin(): Promise<T> {
    return this.activateOnce();
  }

  /** Resolves once a step-down or takeover under way has ended (call after the signal aborted). */
  settled(): Promise<void> {
    return this.cycle;
  }

  private async activateOnce(): Promise<T> {
    let part: T | undefined;
    let lostEarly = false;
    const lost = (): void => {
      if (part === undefined) lostEarly = true;
      else if (this.part === part) this.stepDown(part);
    };
    part = await this.o.activate(lost);
    this.part = part;
    this.last = part;
    this.o.onRole?.('active');
    if (lostEarly) this.stepDown(part);
    return part;
  }

  private stepDown(part: T): void {
    this.part = undefined;
    this.o.onRole?.('standby');
    this.cycle = (async () => {
      await this.o.stepDown(part).catch((err: unknown) => this.o.log.warn({ err: (err as Error).message }, 'error while stepping down'));
      while (!this.o.signal.aborted) {
        try {
          await this.activateOnce();
          return;
        } catch (err) {
          if (this.o.signal.aborted) return;
          this.o.log.error({ err: (err as Error).message, retryMs: this.o.retryMs }, 'cannot become active again; trying later');
          await pause(this.o.retryMs, this.o.signal);
        }
      }
    })();
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
