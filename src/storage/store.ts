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
  /** Transactions rolled back since open (a statement or COMMIT failed). */
  writeErrors: number;
  /** WAL syncs since open: the SQLite store's commits (0 for the memory and PostgreSQL stores). */
  fsyncs: number;
  /** Bytes of the values the store's statements wrote since open (a number counts 8). */
  journalBytes: number;
  /** How long the last COMMIT took (ms). */
  lastWriteMs: number;
  /** Live and archived conversations, as counted at open and by the last `countByOwner`. */
  conversations: number;
  archived: number;
  pendingInbound: number;
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

/** What `forgetContact` removed (or, on a dry run, would remove), by kind. */
export interface ForgetResult {
  /** False when the store keeps nothing about the contact: nothing was changed. */
  known: boolean;
  /** The conversation (hot, cold or archived, with its dialog state and transcript): 0 or 1. */
  conversations: number;
  /** Archived copies of the conversation. */
  archivedCopies: number;
  /** Transcript lines of the conversation (hot, or else the latest archived copy). */
  transcriptLines: number;
  /** Inbound mentions recorded and not yet processed (their ids stay seen, so they are never answered). */
  inbox: number;
  /** Effects not yet performed (replies, notes, handovers): they will not go out. */
  pendingEffects: number;
  /** Records of effects already performed or given up (what went out stays gone; its record goes). */
  finishedEffects: number;
  escalations: number;
  /** Survey answers (audit entries `survey answer`). */
  surveyAnswers: number;
  /** Other audit entries that name the contact. */
  auditEntries: number;
}

/** What `applyRetention` removed. */
export interface RetentionResult {
  /** Transcript lines older than the transcript cut-off, and the conversations they were taken from. */
  transcriptLines: number;
  trimmedConversations: number;
  /** Conversations archived before the archive cut-off, deleted whole, and their archived copies. */
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

/**
 * The bridge's memory, in intents. Mutations are written in the open transaction; the ones marked *durable*
 * resolve only once its COMMIT returned (the WAL synced), so an effect is never performed before the row that
 * makes it safe. The others go out with the same group commit (`flush()` waits for it, and fails when a rollback
 * lost writes since the last flush). What survives which crash: `src/storage/README.md`.
 */
/** Which hot conversations a listing gives (see `listConversations`). */
export interface ConversationFilter {
  owner?: Owner;
  /** Only those updated at or after this (epoch ms). */
  updatedSince?: number;
  /** Only this many, the most recently updated. */
  newest?: number;
}

/** One decision about one contact, recorded as one durable unit by `recordDecision`. */
export interface DecisionInput {
  contactKey: string;
  /**
   * Says the decision was taken (e.g. `topicId/id:decision`): kept as a finished effect of kind `decision`, so a
   * look-up (`getEffect`) finds it and the same decision is never recorded twice. Pruned like any finished effect.
   */
  decidedKey: string;
  /** The conversation's change (as `updateConversation`); undefined leaves it as it is. */
  update: (current: ConversationRecord | undefined) => ConversationRecord | undefined;
  /** The steps to perform, in order; each is enqueued as `enqueueEffect` would (idempotent by key) for `contactKey`. */
  effects: ReadonlyArray<Omit<EffectInput, 'contactKey'>>;
}

export interface RecordedDecision {
  /** False when `decidedKey` was known: the decision was taken before, and nothing was changed now. */
  recorded: boolean;
  /** The conversation as it is after the change (or as it was, when unchanged). */
  conversation: ConversationRecord | undefined;
  /** The decision's effects as stored; `created` false: the key was known (a twin from before), left as it was. */
  effects: Array<{ effect: Effect; created: boolean }>;
}

export interface Store {
  /**
   * Durable. Records an inbound mention once: false when its topic and id were seen before (never act twice).
   * Mentions are told apart by topic and id: two topics may use the same id.
   */
  recordInbound(mention: InboundMention): Promise<boolean>;
  /** Recorded mentions not yet processed, in `addedAt` then id order. */
  pendingInbound(key?: string): Promise<InboundMention[]>;
  markInboundProcessed(topicId: string, id: string): Promise<void>;
  hasSeen(topicId: string, id: string): Promise<boolean>;

  /** Durable. Idempotent by key: enqueueing a known key returns the effect already stored. */
  enqueueEffect(effect: EffectInput): Promise<Effect>;
  /** Pending effects (including those waiting for `retryAt`) in creation order. */
  pendingEffects(contactKey?: string): Promise<Effect[]>;
  getEffect(key: string): Promise<Effect | undefined>;
  /** Marks the effect done (idempotent). A done effect keeps its key, status and result; its payload becomes null. */
  completeEffect(key: string, result?: unknown): Promise<Effect>;
  /** With `retryAt` the effect stays pending until then; without, it is given up (`failed`). */
  failEffect(key: string, error: string, retryAt?: number): Promise<Effect>;

  getCursor(topicId: string): Promise<unknown>;
  setCursor(topicId: string, cursor: unknown): Promise<void>;
  getMeta(): Promise<StoreMeta>;
  setMeta(patch: { baselineAt?: number; values?: Record<string, unknown> }): Promise<StoreMeta>;

  /** Looks in the hot set, then in the archive (an archived conversation is still findable). */
  getConversation(key: string): Promise<ConversationRecord | undefined>;
  /** Saves the record (transcript trimmed to the window); an archived conversation comes back to the hot set. */
  saveConversation(record: ConversationRecord): Promise<ConversationRecord>;
  /** Reads, applies `fn` and saves in one step; `fn` returning undefined leaves the record unchanged. */
  updateConversation(
    key: string,
    fn: (current: ConversationRecord | undefined) => ConversationRecord | undefined,
  ): Promise<ConversationRecord | undefined>;
  /**
   * Durable, one unit. Records a decision: the conversation's change, every effect, and the `decidedKey` mark are
   * made together after any read from disk, without yielding, so they go out in one group commit (one
   * transaction, SQLite or PostgreSQL): a crash keeps all of them or none. Idempotent by `decidedKey`. Input is
   * checked first: a bad effect or record changes nothing. With `wait: 'applied'` it resolves once the change is in
   * the open transaction (a read sees it) and the caller must `flush()` before performing any effect; by default once durable.
   */
  recordDecision(decision: DecisionInput, options?: { wait?: 'durable' | 'applied' }): Promise<RecordedDecision>;
  /**
   * Hot (non-archived) conversations, optionally of one owner and only those updated at or after `updatedSince`
   * (epoch ms), and with `newest` only that many, the most recently updated: the filter is applied before any
   * record is read, so a recent few among many cold ones are cheap. All of them are in memory at once: for a
   * pass over many, use `eachConversation`.
   */
  listConversations(filter?: ConversationFilter): Promise<ConversationRecord[]>;
  /**
   * The conversations `listConversations` would give, one at a time: each is read (cold ones from disk) when its
   * turn comes, as it is then, and `visit` is awaited before the next, so memory holds one record, not thousands.
   * One archived or given another owner before its turn is skipped. Resolves with how many were visited.
   */
  eachConversation(filter: ConversationFilter, visit: (record: ConversationRecord) => void | Promise<void>): Promise<number>;
  countByOwner(): Promise<OwnerCounts>;
  /** Moves conversations untouched since `beforeMs` (default: the retention setting) out of the live rows (a copy in the archive). */
  archiveInactive(beforeMs?: number): Promise<number>;

  openEscalation(input: EscalationInput): Promise<Escalation>;
  updateEscalation(id: string, patch: EscalationPatch): Promise<Escalation>;
  getEscalation(id: string): Promise<Escalation | undefined>;
  listEscalations(filter?: { status?: EscalationStatus | EscalationStatus[]; contactKey?: string }): Promise<Escalation[]>;

  /** Appends to the audit log (append-only; written by the next coalesced write). */
  audit(entry: AuditEntry): Promise<void>;
  /** The most recent `limit` entries at or after `since`, oldest first. */
  listAudit(filter?: { since?: number; limit?: number }): Promise<AuditEntry[]>;

  /**
   * Drops seen ids, finished effects, closed escalations and audit entries older than the cut-offs (survey answers by
   * their own retention, `surveyDays`); compacts the archive.
   */
  prune(cutoffs?: { seenBeforeMs?: number; auditBeforeMs?: number }): Promise<PruneResult>;
  /**
   * Deletes by date what the retention settings no longer allow: transcript lines older than `transcriptDays` (the
   * conversation itself stays, its date unchanged), conversations archived longer than `archiveDays` (every copy),
   * survey answers older than `surveyDays`. Durable when it resolves.
   */
  applyRetention(cutoffs?: RetentionCutoffs): Promise<RetentionResult>;
  /**
   * Removes everything the store keeps about one contact (`channel:serviceId`): its conversation (hot, cold and every
   * archived copy, with dialog state and transcript), its inbound mentions not yet processed, its effects (pending and
   * finished records), its escalations, its survey answers and every audit entry that names it. Seen mention ids stay
   * (they name no contact, and keep old mentions from being answered again). With `dryRun` it only counts. Durable
   * when it resolves; a contact the store does not know changes nothing (`known` false).
   */
  forgetContact(contactKey: string, options?: { dryRun?: boolean }): Promise<ForgetResult>;

  /** Durable: resolves once every mutation made so far is on disk. */
  flush(): Promise<void>;
  /** Flushes and releases the data directory. Later calls fail with code `closed`. */
  close(): Promise<void>;
  stats(): StoreStats;
}
