import type { AuditEntry as SharedAuditEntry } from '../shared/audit-entry.js';
import { slashText } from '../shared/contact-key.js';
import type { BusinessHoursSchedule, Contact, ContactUpdateOptions, HandoverItem, Mention, TagsEditMode } from '../engage/schemas/index.js';

/** Who runs a command. The terminal actor is always a manager (it holds the account's token anyway). */
import type { Actor } from '../shared/actor.js';
export type { Actor };

/** A contact on a chat channel: the handover service and the contact's id on that channel. */
export interface ContactKey {
  readonly service: string;
  readonly serviceId: string;
}

/** How the bridge (and the Slack notices) key a contact: `service/service_id`. */
export function contactKeyText(contact: ContactKey): string {
  return slashText(contact.service, contact.serviceId);
}

/** How a contact is addressed on the contact endpoints. */
export type ContactAddress = { readonly id: string } | ContactKey;

/** Only the contact properties a command changes; the shape `contacts.update` sends. */
export interface ContactUpdatesSent {
  company?: string;
  comments?: string;
  address?: { country: { code: string } };
  tags?: string[];
  customattributes?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * The slice of the Engage client (`src/engage/resources`) the commands use, with the client's own
 * signatures, so the real client can be passed as it is.
 */
export interface CommandEngageClient {
  readonly mentions: {
    update(
      ref: { topicId: string; id: string },
      updates: { tags: string[] },
      opts?: { options?: { tags_edit_mode?: TagsEditMode } },
    ): Promise<Mention>;
  };
  readonly contacts: {
    get(ref: ContactAddress, opts?: { topicIds?: readonly string[] }): Promise<Contact>;
    update(
      ref: ContactAddress,
      updates: ContactUpdatesSent,
      opts?: { options?: ContactUpdateOptions; topicIds?: readonly string[] },
    ): Promise<Contact>;
  };
  readonly handover: {
    get(ref: ContactKey): Promise<HandoverItem>;
  };
  readonly businessHours: {
    /** Every page of the account's schedules. */
    listPages(): AsyncIterable<{ data: BusinessHoursSchedule[] }>;
  };
}

import type { Owner } from '../shared/owner.js';
export type { Owner };

export interface OwnerView {
  readonly owner: Owner;
  /** UNIX ms of the last change, when known. */
  readonly sinceMs?: number;
  readonly reason?: string;
}

export interface OwnerChange {
  readonly from?: Owner;
  readonly to: Owner;
}

export interface PauseChange {
  /** False when it already was so. */
  readonly changed: boolean;
  /** The contact's owner before and after (absent for `all`, a global switch). */
  readonly from?: Owner;
  readonly to?: Owner;
}

export interface OpenEscalation {
  /** `service/service_id` */
  readonly contactKey: string;
  readonly name?: string;
  readonly channel: string;
  readonly reason: string;
  readonly sinceMs: number;
}

/** A customer's CSAT (1–5) or NPS (0–10) answer, as the bridge keeps it. */
export interface SurveyAnswerView {
  readonly at: number;
  readonly contactKey: string;
  readonly kind: 'csat' | 'nps';
  readonly score: number;
  readonly channel: string;
  /** The escalation reason of the stretch the answer rates. */
  readonly reason: string;
}

/** Shadow mode's tally (BRIDGE_MODE=shadow): what the bridge would have done; it sent and changed nothing. */
export interface ShadowView {
  readonly sinceMs: number;
  readonly wouldAnswer: number;
  /** Hand-overs to people it would have made, by reason. */
  readonly wouldEscalate: Readonly<Record<string, number>>;
  readonly wouldClaim: number;
  /** Claims of contacts people held by a hand-over: must be 0. */
  readonly wouldClaimFromPeople: number;
  readonly writesWithheld: Readonly<Record<string, number>>;
  /** The newest replies it would have sent, newest last. */
  readonly sample: ReadonlyArray<{ readonly atMs: number; readonly contactKey: string; readonly text: string }>;
}

export interface BridgeHealth {
  /** How far ingestion is behind the newest mention, ms; null when unknown. */
  readonly ingestionLagMs: number | null;
  readonly conversationsByOwner: Readonly<Partial<Record<Owner, number>>>;
  /** `x-ratelimit-remaining` of the last API answer; null when unknown. */
  readonly apiBudgetRemaining: number | null;
  readonly apiBudgetResetMs?: number;
  readonly lastError?: { readonly atMs: number; readonly message: string };
  readonly botPausedForAll: boolean;
  /** Inbox reads in the last hour: `list` pages of the mentions list, `recheck` recent mentions read again by id. */
  readonly pollCallsLastHour?: { readonly list: number; readonly recheck: number };
  /** Guesses about the service seen not to hold (times), and what the start-up probes found (issue 26). */
  readonly guesses?: {
    readonly notHeld: Readonly<Record<string, number | undefined>>;
    readonly probes: Readonly<Record<string, { readonly holds: boolean; readonly detail: string }>>;
  };
  /** Effects parked for good (never tried again): how many, and the newest first. */
  readonly deadEffects?: {
    readonly count: number;
    readonly latest: ReadonlyArray<{ readonly kind: string; readonly contactKey: string; readonly reason: string; readonly atMs: number }>;
  };
  /** Present in shadow mode only. */
  readonly shadow?: ShadowView;
}

/**
 * What the commands need from the bridge. Ownership changes go through here so the ownership
 * state machine stays the one place that changes owners.
 */
export interface BridgeControl {
  /** `contactKey` is `service/service_id` (see `contactKeyText`); undefined when the bridge never saw it. */
  getOwner(contactKey: string): Promise<OwnerView | undefined>;
  setOwner(contactKey: string, owner: 'bot' | 'agents', actor: Actor): Promise<OwnerChange>;
  pauseBot(target: string | 'all', actor: Actor): Promise<PauseChange>;
  resumeBot(target: string | 'all', actor: Actor): Promise<PauseChange>;
  openEscalations(): Promise<OpenEscalation[]>;
  /** CSAT/NPS answers recorded at or after `sinceMs`, oldest first. */
  surveyAnswers(sinceMs: number): Promise<SurveyAnswerView[]>;
  health(): Promise<BridgeHealth>;
  /** The topics the bridge watches; contact calls of chat channels need them. */
  watchedTopicIds(): Promise<readonly string[]>;
  /**
   * Hands to people every contact the bot holds whose customer wrote in the last `sinceMs` (with a note saying
   * why); with `dryRun`, only lists them. For the day the bridge cannot come back, and for a stop with
   * BRIDGE_ON_STOP=agents.
   */
  releaseToAgents(o: { sinceMs: number; dryRun: boolean; why: string }, actor: Actor): Promise<ReleasedContact[]>;
  /**
   * Removes everything the bridge keeps about one contact (`service/service_id`): conversation, transcript, dialog
   * state, effects not sent, escalations, survey answers, audit entries; with `dryRun`, only counts.
   */
  forgetContact(contactKey: string, o: { dryRun: boolean }, actor: Actor): Promise<ForgetReport>;
}

/** What `forget` removed (or, on a dry run, would remove). */
export interface ForgetReport {
  /** False when the bridge keeps nothing about the contact: nothing was changed. */
  readonly known: boolean;
  /** Counts by kind (`conversations`, `transcriptLines`, `surveyAnswers`…), as the store reports them. */
  readonly removed: Readonly<Record<string, number>>;
  /** The contact's keyed hash as log lines show it (`whatsapp/c-3f9a…`): the audit names the contact only so. */
  readonly pseudonym: string;
}

export interface ReleasedContact {
  /** `service/service_id`. */
  readonly contactKey: string;
  readonly name?: string;
  readonly lastCustomerAtMs: number;
  /** False when the handover failed (the reason says why); always false on a dry run. */
  readonly released: boolean;
  readonly reason?: string;
}

export type AuditResult = 'ok' | 'refused' | 'failed';

/** The project's audit entry, with the outcome a command always has; the store is the audit port. */
export type AuditEntry = SharedAuditEntry & { readonly result: AuditResult };

export interface AuditLog {
  audit(entry: AuditEntry): Promise<void>;
}

/** Everything a command may touch; each transport builds one. */
export interface CommandDeps {
  readonly engage: CommandEngageClient;
  readonly bridge: BridgeControl;
  readonly audit: AuditLog;
  /** Slack user ids allowed to run commands other than `help`. */
  readonly managerIds: readonly string[];
  readonly now: () => Date;
  /** With several instances on PostgreSQL: which role this one plays (`status` shows it). */
  readonly instanceRole?: () => 'active' | 'standby';
}
