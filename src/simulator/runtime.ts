import type { RateLimitHeaderVariant } from './rate-limit-headers.js';
import type { BoundedLog } from './bounded-log.js';
import type { GoneContact } from './gone-contacts.js';
import type { OutboundEntry } from './model.js';
import type { SimState } from './sim-state.js';
import { NO_GUESS_REALISM, type GuessRealism } from './guesses.js';

export interface Realism extends GuessRealism {
  /** Many mentions share one `date.added`: timestamps are rounded down to this many seconds (true = 10). */
  timestamp_ties: boolean | number;
  /** A new mention shows up in list calls up to this many ms after it was added. */
  indexing_delay_ms: number;
  /** Items carry fields no client knows about. */
  extra_fields: boolean;
  /** The service's clock runs this many seconds ahead (negative: behind) of the simulator's own clock. */
  clock_offset_seconds: number;
  /** A new mention is listed (lists and filters) only this many seconds after its `date.added`. */
  late_indexing_seconds: number;
  /** Which rate-limit headers answers carry (see `rate-limit-headers.ts`). */
  rate_limit_headers: RateLimitHeaderVariant;
  /** Contacts whose lookups (contact and handover, by service and id or by contact id) answer 404. */
  gone_contacts: GoneContact[];
  /** Share (0..1) of mentions that lists show with `message.content` as a number; dice from the fault seed. */
  odd_item_rate: number;
  /**
   * Source services (`source.service`, e.g. `facebook`) whose mentions carry no `source.thread_id`: the description
   * says it is "not available for all sources".
   */
  omit_thread_id_sources: string[];
  /**
   * Each topic numbers its mentions on its own counter, so two topics issue the same ids (the API addresses a
   * mention by topic and id and never promises ids unique across topics). Off: one counter for the account.
   */
  overlapping_mention_ids: boolean;
}

export const NO_REALISM: Realism = {
  timestamp_ties: false,
  indexing_delay_ms: 0,
  extra_fields: false,
  clock_offset_seconds: 0,
  late_indexing_seconds: 0,
  rate_limit_headers: 'both',
  gone_contacts: [],
  odd_item_rate: 0,
  omit_thread_id_sources: [],
  overlapping_mention_ids: false,
  ...NO_GUESS_REALISM,
};

/** What every handler may use: the data, the clocks, randomness and the realism switches. */
export interface Runtime {
  readonly state: SimState;
  /**
   * The service's clock in UNIX seconds: the simulator's own clock (fixed by `/_sim/clock`, else the real
   * clock) plus `realism.clock_offset_seconds`. Everything the service writes is stamped with it.
   */
  now(): number;
  /** The underlying clock in ms, never fixed: drives rate-limit windows and indexing delays. */
  realMs(): number;
  random(): number;
  /** One roll of the fault dice (`/_sim/faults {seed}` makes them reproducible). */
  faultRoll(): number;
  readonly realism: Realism;
  /** Absolute base address of the API as clients reach it (for links). */
  baseUrl(): string;
  /** Every message published through the API or by an agent, for `/_sim/outbound`. */
  readonly outbound: BoundedLog<OutboundEntry>;
  /** A new inbound customer mention exists (webhook push). */
  onInbound(mentionId: string, topicId: number): void;
}
