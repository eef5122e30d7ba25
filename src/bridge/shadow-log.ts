/**
 * Shadow mode (`BRIDGE_MODE=shadow`, issue 26 part 3): the bridge reads and decides as usual, and this log keeps the
 * tally of what it would have done instead of doing it. Nothing here reaches the service; `status` and the `shadow`
 * command show it.
 */
export interface ShadowReply {
  readonly atMs: number;
  /** `channel:service_id`. */
  readonly contactKey: string;
  readonly text: string;
}

export interface ShadowTally {
  readonly sinceMs: number;
  /** Replies it would have sent. */
  readonly wouldAnswer: number;
  /** Hand-overs to people it would have made, by why (the escalation reason, or what a person did). */
  readonly wouldEscalate: Readonly<Record<string, number>>;
  /** Contacts it would have claimed (handover DELETE). */
  readonly wouldClaim: number;
  /** Of those, contacts people held by a hand-over (not "never handed over"): must stay 0. */
  readonly wouldClaimFromPeople: number;
  /** Every write call it held back (replies, handovers, tags, notes, statuses), by call. */
  readonly writesWithheld: Readonly<Record<string, number>>;
  /** The newest replies it would have sent, newest last. */
  readonly sample: readonly ShadowReply[];
}

/** How many would-be replies are kept for the sample. */
export const SHADOW_SAMPLE_SIZE = 10;

export class ShadowLog {
  private wouldAnswer = 0;
  private wouldClaim = 0;
  private wouldClaimFromPeople = 0;
  private readonly escalations = new Map<string, number>();
  private readonly writes = new Map<string, number>();
  private readonly sample: ShadowReply[] = [];

  constructor(private readonly sinceMs: number) {}

  reply(r: ShadowReply): void {
    this.wouldAnswer++;
    this.sample.push(r);
    if (this.sample.length > SHADOW_SAMPLE_SIZE) this.sample.shift();
  }

  escalated(why: string): void {
    this.escalations.set(why, (this.escalations.get(why) ?? 0) + 1);
  }

  claimed(fromPeople: boolean): void {
    this.wouldClaim++;
    if (fromPeople) this.wouldClaimFromPeople++;
  }

  wrote(call: string): void {
    this.writes.set(call, (this.writes.get(call) ?? 0) + 1);
  }

  tally(): ShadowTally {
    return {
      sinceMs: this.sinceMs,
      wouldAnswer: this.wouldAnswer,
      wouldEscalate: Object.fromEntries(this.escalations),
      wouldClaim: this.wouldClaim,
      wouldClaimFromPeople: this.wouldClaimFromPeople,
      writesWithheld: Object.fromEntries(this.writes),
      sample: [...this.sample],
    };
  }
}
