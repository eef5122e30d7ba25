import type {
  AuditEntry,
  ConversationRecord,
  Effect,
  EffectInput,
  Escalation,
  EscalationInput,
  EscalationPatch,
  EscalationStatus,
  InboundMention,
  Owner,
  StoreMeta,
} from './records.js';

export interface StoreStats {
  /** Transactions committed since open (SQLite: each one WAL sync). */
  writes: number;
  /** WAL syncs since open: the SQLite store's commits (0 for the memory and PostgreSQL stores). */
  fsyncs: number;
  /** Bytes of the values the store's statements wrote since open (a number counts 8). */
  journalBytes: number;
  /** How long the last COMMIT took (ms). */
  lastWriteMs: number;
  pendingEffects: number;
}

export interface PruneResult {
  seenIds: number;
  effects: number;
  escalations: number;
  auditEntries: number;
  /** Archive copies dropped: superseded by a later copy, or the conversation is hot again. */
  archiveCopies: number;
}

export type OwnerCounts = Record<Owner, number> & { archived: number };

/** What `forgetContact` removed (or, on a dry run, would remove), by kind (`src/storage/README.md`). */
export interface ForgetResult {
  /** False when the store keeps nothing about the contact: nothing was changed. */
  known: boolean;
  conversations: number;
  archivedCopies: number;
  transcriptLines: number;
  inbox: number;
  pendingEffects: number;
  finishedEffects: number;
  escalations: number;
  surveyAnswers: number;
  auditEntries: number;
}

/** What `applyRetention` removed. */
export interface RetentionResult {
  transcriptLines: number;
  trimmedConversations: number;
  archivedConversations: number;
  archiveCopies: number;
  surveyAnswers: number;
}

/** Cut-offs of `applyRetention` (epoch ms); each defaults to now minus its retention setting. */
export interface RetentionCutoffs {
  transcriptBeforeMs?: number;
  archiveBeforeMs?: number;
  surveyBeforeMs?: number;
}

/** Which live conversations a listing gives: of one owner, updated at or after `updatedSince`, the `newest` few. */
export interface ConversationFilter {
  owner?: Owner;
  updatedSince?: number;
  newest?: number;
}

/** One decision about one contact, recorded as one durable unit by `recordDecision`. */
export interface DecisionInput {
  contactKey: string;
  /** Says the decision was taken (e.g. `topicId/id:decision`): kept as a finished effect of kind `decision`. */
  decidedKey: string;
  /** The conversation's change (as `updateConversation`); undefined leaves it as it is. */
  update: (current: ConversationRecord | undefined) => ConversationRecord | undefined;
  /** The steps to perform, in order; each is enqueued as `enqueueEffect` would (idempotent by key) for `contactKey`. */
  effects: ReadonlyArray<Omit<EffectInput, 'contactKey'>>;
}

export interface RecordedDecision {
  /** False when `decidedKey` was known: the decision was taken before, and nothing was changed now. */
  recorded: boolean;
  conversation: ConversationRecord | undefined;
  /** The decision's effects as stored; `created` false: the key was known (a twin from before), left as it was. */
  effects: Array<{ effect: Effect; created: boolean }>;
}

/**
 * The bridge's memory, in intents. *Durable*: resolves once the COMMIT that holds the change returned; the other
 * writes are in the open transaction, committed with the next group commit (`flush()` waits for it). What each
 * method does, and what survives which crash: `src/storage/README.md`.
 */
export interface Store {
  /** Durable. False when this topic and id were seen before. */
  recordInbound(mention: InboundMention): Promise<boolean>;
  pendingInbound(key?: string): Promise<InboundMention[]>;
  markInboundProcessed(topicId: string, id: string): Promise<void>;
  hasSeen(topicId: string, id: string): Promise<boolean>;

  /** Durable, idempotent by key: a known key returns the effect already stored. */
  enqueueEffect(effect: EffectInput): Promise<Effect>;
  pendingEffects(contactKey?: string): Promise<Effect[]>;
  getEffect(key: string): Promise<Effect | undefined>;
  completeEffect(key: string, result?: unknown): Promise<Effect>;
  failEffect(key: string, error: string, retryAt?: number): Promise<Effect>;

  getCursor(topicId: string): Promise<unknown>;
  setCursor(topicId: string, cursor: unknown): Promise<void>;
  getMeta(): Promise<StoreMeta>;
  setMeta(patch: { baselineAt?: number; values?: Record<string, unknown> }): Promise<StoreMeta>;

  getConversation(key: string): Promise<ConversationRecord | undefined>;
  saveConversation(record: ConversationRecord): Promise<ConversationRecord>;
  updateConversation(
    key: string,
    fn: (current: ConversationRecord | undefined) => ConversationRecord | undefined,
  ): Promise<ConversationRecord | undefined>;
  /** Durable (or with `wait: 'applied'`, in the open transaction: `flush()` before any effect), one unit. */
  recordDecision(decision: DecisionInput, options?: { wait?: 'durable' | 'applied' }): Promise<RecordedDecision>;
  listConversations(filter?: ConversationFilter): Promise<ConversationRecord[]>;
  eachConversation(filter: ConversationFilter, visit: (record: ConversationRecord) => void | Promise<void>): Promise<number>;
  countByOwner(): Promise<OwnerCounts>;
  /** Durable. */
  archiveInactive(beforeMs?: number): Promise<number>;

  openEscalation(input: EscalationInput): Promise<Escalation>;
  updateEscalation(id: string, patch: EscalationPatch): Promise<Escalation>;
  getEscalation(id: string): Promise<Escalation | undefined>;
  listEscalations(filter?: { status?: EscalationStatus | EscalationStatus[]; contactKey?: string }): Promise<Escalation[]>;

  audit(entry: AuditEntry): Promise<void>;
  /** The most recent `limit` (default 100) entries at or after `since`, oldest first. */
  listAudit(filter?: { since?: number; limit?: number }): Promise<AuditEntry[]>;

  /** Durable. */
  prune(cutoffs?: { seenBeforeMs?: number; auditBeforeMs?: number }): Promise<PruneResult>;
  /** Durable. */
  applyRetention(cutoffs?: RetentionCutoffs): Promise<RetentionResult>;
  /** Durable (unless `dryRun`, which only counts). */
  forgetContact(contactKey: string, options?: { dryRun?: boolean }): Promise<ForgetResult>;

  /** Durable: resolves once every mutation made so far is committed; fails once when a rollback lost writes since the last flush. */
  flush(): Promise<void>;
  /** Durable: commits, then releases the connection and the lock. Later calls fail with code `closed`. */
  close(): Promise<void>;
  stats(): StoreStats;
}
