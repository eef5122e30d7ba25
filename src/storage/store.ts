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

/** Since open: COMMITs, WAL syncs (SQLite file only), bytes bound to statements (a number counts 8); the last COMMIT's ms. */
export interface StoreStats {
  writes: number;
  fsyncs: number;
  journalBytes: number;
  lastWriteMs: number;
  pendingEffects: number;
}

export interface PruneResult {
  seenIds: number;
  effects: number;
  escalations: number;
  auditEntries: number;
  archiveCopies: number;
}

export type OwnerCounts = Record<Owner, number> & { archived: number };

/** What `forgetContact` removed (or, on a dry run, would remove), by kind; `known` false: nothing was changed. */
export interface ForgetResult {
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

/** Live conversations of one owner, updated at or after `updatedSince`, the `newest` few. */
export interface ConversationFilter {
  owner?: Owner;
  updatedSince?: number;
  newest?: number;
}

/**
 * One decision about one contact (`recordDecision`): the conversation's change (as `updateConversation`), the
 * effects to perform in order (each enqueued as `enqueueEffect` would), and `decidedKey` (e.g. `topicId/id:decision`),
 * kept as a finished effect of kind `decision` to say it was taken.
 */
export interface DecisionInput {
  contactKey: string;
  decidedKey: string;
  update: (current: ConversationRecord | undefined) => ConversationRecord | undefined;
  effects: ReadonlyArray<Omit<EffectInput, 'contactKey'>>;
}

/** `recorded` false: `decidedKey` was known, nothing changed; an effect `created` false: its key was known, left as it was. */
export interface RecordedDecision {
  recorded: boolean;
  conversation: ConversationRecord | undefined;
  effects: Array<{ effect: Effect; created: boolean }>;
}

/**
 * The bridge's memory, in intents. *Durable*: resolves once the COMMIT that holds the change returned; the other
 * writes are in the open transaction, committed with the next group commit (`flush()`). What each method does, and
 * what survives which crash: `src/storage/README.md`.
 */
export interface Store {
  /** Durable. False when this topic and id were seen before. */
  recordInbound(mention: InboundMention): Promise<boolean>;
  pendingInbound(key?: string): Promise<InboundMention[]>;
  markInboundProcessed(topicId: string, id: string): Promise<void>;
  hasSeen(topicId: string, id: string): Promise<boolean>;

  /** Durable. Idempotent by key. */
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
  /** Durable, one unit (with `wait: 'applied'`: in the open transaction; `flush()` before any effect). */
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

  /** Durable: every change so far committed (fails once when a rollback lost writes since the last flush). */
  flush(): Promise<void>;
  /** Durable: commits, then releases the connection and the lock; later calls fail with `closed`. */
  close(): Promise<void>;
  stats(): StoreStats;
}
