import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { ConversationBook } from './conversation-book.js';
import { copyJsonData } from './json-data.js';
import type { HotState } from './hot-state.js';
import { parseInput, requireId } from './parse-input.js';
import type { Persistence } from './persistence.js';
import { auditEntrySchema, effectInputSchema, escalationInputSchema, escalationPatchSchema, inboundMentionSchema } from './records.js';
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
  StoreMeta,
} from './records.js';
import { listEscalationsIn, openEscalationIn, pruneEscalationsIn, updateEscalationIn } from './state/escalations.js';
import { hasSeenIn, markInboundProcessedIn, pendingInboundIn, pruneSeenIn, recordInboundIn } from './state/inbox.js';
import { completeEffectIn, enqueueEffectIn, failEffectIn, pendingEffectsIn, pruneEffectsIn, recordDecisionIn } from './state/outbox.js';
import { coldCountIn } from './state/conversations.js';
import { StoreError, describeCause } from './store-error.js';
import { DAY_MS } from './store-options.js';
import type { ResolvedStoreOptions } from './store-options.js';
import { applyRetentionIn, auditRetention, forgetContactIn } from './forget-and-retain.js';
import type {
  ConversationFilter,
  DecisionInput,
  ForgetResult,
  OwnerCounts,
  PruneResult,
  RecordedDecision,
  RetentionCutoffs,
  RetentionResult,
  Store,
  StoreStats,
} from './store.js';
import { WriteCoalescer } from './write-coalescer.js';

const DEFAULT_AUDIT_LIMIT = 100;
// Built once: making a zod schema costs more than using it.
const anyJson = z.unknown();
const metaPatchSchema = z.object({ baselineAt: z.number().optional(), values: z.record(z.string(), z.unknown()).optional() });
const WRITE_RETRY_DELAY_MS = 1000;

/** The store's logic over any persistence: the SQLite, PostgreSQL and memory stores differ only below it. */
export class StoreCore implements Store {
  private auditBuffer: AuditEntry[] = [];
  private readonly book: ConversationBook;
  private closed = false;
  private readonly writer: WriteCoalescer;
  private readonly counters = { writes: 0, appends: 0, writeErrors: 0, hotFileBytes: 0, lastWriteMs: 0 };

  constructor(
    private readonly state: HotState,
    private readonly persistence: Persistence,
    private readonly options: ResolvedStoreOptions,
  ) {
    this.book = new ConversationBook(state, persistence, options, (what) => {
      if (what === 'archive') this.counters.appends += 1;
      else this.writer.markDirty();
    });
    this.writer = new WriteCoalescer(() => this.writeOnce(), {
      minIntervalMs: options.writeIntervalMs,
      retryDelayMs: Math.max(options.writeIntervalMs, WRITE_RETRY_DELAY_MS),
      onError: (error) => {
        this.counters.writeErrors += 1;
        this.options.logger.error({ code: 'io', problem: describeCause(error) }, 'store write failed; will retry');
      },
    });
  }

  async recordInbound(mention: InboundMention): Promise<boolean> {
    this.ensureOpen();
    const parsed = parseInput(inboundMentionSchema, mention, 'Inbound mention');
    if (!recordInboundIn(this.state, parsed, this.now())) return false;
    await this.writer.whenDurable();
    return true;
  }

  async pendingInbound(key?: string): Promise<InboundMention[]> {
    this.ensureOpen();
    return copyJsonData(pendingInboundIn(this.state, key));
  }

  async markInboundProcessed(topicId: string, id: string): Promise<void> {
    this.ensureOpen();
    if (typeof topicId !== 'string') throw new StoreError('invalid', 'Topic id must be a string; nothing was changed.');
    if (markInboundProcessedIn(this.state, topicId, requireId(id, 'Mention id'))) this.writer.markDirty();
  }

  async hasSeen(topicId: string, id: string): Promise<boolean> {
    this.ensureOpen();
    return hasSeenIn(this.state, topicId, id);
  }

  async enqueueEffect(effect: EffectInput): Promise<Effect> {
    this.ensureOpen();
    const parsed = parseInput(effectInputSchema, effect, 'Effect');
    const { effect: stored, created } = enqueueEffectIn(this.state, parsed, this.now());
    const copy = copyJsonData(stored);
    // A twin enqueued a moment ago may not be on disk yet: either way, return only once it is.
    await (created ? this.writer.whenDurable() : this.writer.flush());
    return copy;
  }

  async pendingEffects(contactKey?: string): Promise<Effect[]> {
    this.ensureOpen();
    return copyJsonData(pendingEffectsIn(this.state, contactKey));
  }

  async getEffect(key: string): Promise<Effect | undefined> {
    this.ensureOpen();
    const effect = this.state.outbox.get(key);
    return effect && copyJsonData(effect);
  }

  async completeEffect(key: string, result?: unknown): Promise<Effect> {
    this.ensureOpen();
    const copy = result === undefined ? undefined : parseInput(anyJson, result, 'Effect result');
    const done = completeEffectIn(this.state, requireId(key, 'Effect key'), copy, this.now());
    this.writer.markDirty();
    return copyJsonData(done);
  }

  async failEffect(key: string, error: string, retryAt?: number): Promise<Effect> {
    this.ensureOpen();
    if (retryAt !== undefined && !Number.isFinite(retryAt)) {
      throw new StoreError('invalid', `retryAt must be epoch milliseconds (got ${String(retryAt)}); nothing was changed.`);
    }
    const failed = failEffectIn(this.state, requireId(key, 'Effect key'), String(error), retryAt, this.now());
    this.writer.markDirty();
    return copyJsonData(failed);
  }

  async getCursor(topicId: string): Promise<unknown> {
    this.ensureOpen();
    const cursor = this.state.cursors.get(topicId);
    return cursor === undefined ? undefined : copyJsonData(cursor.value);
  }

  async setCursor(topicId: string, cursor: unknown): Promise<void> {
    this.ensureOpen();
    const value = parseInput(anyJson, cursor, `Cursor of topic ${topicId}`);
    this.state.cursors.set(requireId(topicId, 'Topic id'), { value, updatedAt: this.now() });
    this.writer.markDirty();
  }

  async getMeta(): Promise<StoreMeta> {
    this.ensureOpen();
    const { createdAt, baselineAt, values } = this.state.meta;
    return copyJsonData(baselineAt === undefined ? { createdAt, values } : { createdAt, baselineAt, values });
  }

  async setMeta(patch: { baselineAt?: number; values?: Record<string, unknown> }): Promise<StoreMeta> {
    this.ensureOpen();
    const parsed = parseInput(metaPatchSchema, patch, 'Meta patch');
    if (parsed.baselineAt !== undefined) this.state.meta.baselineAt = parsed.baselineAt;
    if (parsed.values) this.state.meta.values = { ...this.state.meta.values, ...parsed.values };
    this.writer.markDirty();
    return this.getMeta();
  }

  async getConversation(key: string): Promise<ConversationRecord | undefined> {
    this.ensureOpen();
    return this.book.get(key);
  }

  async saveConversation(record: ConversationRecord): Promise<ConversationRecord> {
    this.ensureOpen();
    return this.book.save(record);
  }

  async updateConversation(
    key: string,
    fn: (current: ConversationRecord | undefined) => ConversationRecord | undefined,
  ): Promise<ConversationRecord | undefined> {
    this.ensureOpen();
    return this.book.update(key, fn);
  }

  async recordDecision(decision: DecisionInput, options: { wait?: 'durable' | 'applied' } = {}): Promise<RecordedDecision> {
    this.ensureOpen();
    const contactKey = requireId(decision.contactKey, 'Contact key');
    const decidedKey = requireId(decision.decidedKey, 'Decision key');
    const inputs = decision.effects.map((e, i) => parseInput(effectInputSchema, { ...e, contactKey }, `Effect ${i + 1} of the decision`));
    if (inputs.some((e) => e.key === decidedKey)) {
      throw new StoreError('invalid', `Effect key ${decidedKey} is also the decision's own key; nothing was changed.`);
    }
    let result: { recorded: boolean; effects: Array<{ effect: Effect; created: boolean }> } = { recorded: false, effects: [] };
    // Everything below the read happens in one synchronous stretch: the next group commit takes all of it or none.
    const conversation = await this.book.update(
      contactKey,
      (current) => (this.state.outbox.has(decidedKey) ? undefined : decision.update(current)),
      () => {
        result = recordDecisionIn(this.state, contactKey, decidedKey, inputs, this.now());
        if (result.recorded) this.writer.markDirty();
      },
    );
    const effects = copyJsonData(result.effects);
    if (options.wait !== 'applied') {
      // Known before: it may still be on its way to disk; either way, resolve only once it is there.
      await (result.recorded ? this.writer.whenDurable() : this.writer.flush());
    }
    return { recorded: result.recorded, conversation, effects };
  }

  async listConversations(filter: ConversationFilter = {}): Promise<ConversationRecord[]> {
    this.ensureOpen();
    return this.book.list(filter);
  }

  async eachConversation(filter: ConversationFilter, visit: (record: ConversationRecord) => void | Promise<void>): Promise<number> {
    this.ensureOpen();
    return this.book.each(filter, visit);
  }

  async countByOwner(): Promise<OwnerCounts> {
    this.ensureOpen();
    return this.book.count();
  }

  async archiveInactive(beforeMs?: number): Promise<number> {
    this.ensureOpen();
    return this.book.archiveInactive(beforeMs);
  }

  async openEscalation(input: EscalationInput): Promise<Escalation> {
    this.ensureOpen();
    const escalation = openEscalationIn(this.state, parseInput(escalationInputSchema, input, 'Escalation'), this.now());
    this.writer.markDirty();
    return copyJsonData(escalation);
  }

  async updateEscalation(id: string, patch: EscalationPatch): Promise<Escalation> {
    this.ensureOpen();
    const parsed = parseInput(escalationPatchSchema, patch, 'Escalation patch');
    const updated = updateEscalationIn(this.state, requireId(id, 'Escalation id'), parsed, this.now());
    this.writer.markDirty();
    return copyJsonData(updated);
  }

  async getEscalation(id: string): Promise<Escalation | undefined> {
    this.ensureOpen();
    const escalation = this.state.escalations.get(id);
    return escalation && copyJsonData(escalation);
  }

  async listEscalations(filter: { status?: EscalationStatus | EscalationStatus[]; contactKey?: string } = {}): Promise<Escalation[]> {
    this.ensureOpen();
    return copyJsonData(listEscalationsIn(this.state, filter));
  }

  async audit(entry: AuditEntry): Promise<void> {
    this.ensureOpen();
    this.auditBuffer.push(parseInput(auditEntrySchema, entry, 'Audit entry'));
    this.writer.markDirty();
  }

  async listAudit(filter: { since?: number; limit?: number } = {}): Promise<AuditEntry[]> {
    this.ensureOpen();
    const limit = Math.max(0, Math.floor(filter.limit ?? DEFAULT_AUDIT_LIMIT));
    const since = filter.since ?? Number.NEGATIVE_INFINITY;
    await this.flush();
    const kept: AuditEntry[] = [];
    await this.persistence.readAudit((entry) => {
      if (entry.at < since) return;
      kept.push(entry);
      // Trim in chunks so a long log never sits in memory whole.
      if (kept.length > limit * 2 + 1000) kept.splice(0, kept.length - limit);
    });
    return limit === 0 ? [] : kept.slice(-limit);
  }

  async prune(cutoffs: { seenBeforeMs?: number; auditBeforeMs?: number } = {}): Promise<PruneResult> {
    this.ensureOpen();
    const now = this.now();
    const seenBefore = cutoffs.seenBeforeMs ?? now - this.options.retention.seenIdsDays * DAY_MS;
    const auditBefore = cutoffs.auditBeforeMs ?? now - this.options.retention.auditDays * DAY_MS;
    const result: PruneResult = {
      seenIds: pruneSeenIn(this.state, seenBefore),
      effects: pruneEffectsIn(this.state, seenBefore),
      escalations: pruneEscalationsIn(this.state, auditBefore),
      auditEntries: 0,
      archiveCopies: 0,
    };
    await this.flush();
    const surveyBefore = now - this.options.retention.surveyDays * DAY_MS;
    result.auditEntries = await this.persistence.rewriteAudit(auditRetention(auditBefore, surveyBefore));
    result.archiveCopies = await this.book.compactArchive();
    return result;
  }

  async applyRetention(cutoffs: RetentionCutoffs = {}): Promise<RetentionResult> {
    this.ensureOpen();
    return applyRetentionIn(this.forgetDeps(), cutoffs);
  }

  async forgetContact(contactKey: string, options: { dryRun?: boolean } = {}): Promise<ForgetResult> {
    this.ensureOpen();
    return forgetContactIn(this.forgetDeps(), requireId(contactKey, 'Contact key'), options.dryRun === true);
  }

  private forgetDeps() {
    return {
      state: this.state,
      book: this.book,
      persistence: this.persistence,
      options: this.options,
      markDirty: () => this.writer.markDirty(),
      flush: () => this.flush(),
    };
  }

  /** Writes a full snapshot now (after a migration, so the old layout is gone at once). */
  async persistAll(): Promise<void> {
    this.ensureOpen();
    await this.writer.flush();
    await this.persistence.snapshot(this.state);
  }

  flush(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return this.writer.flush();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.writer.flushNow();
      // A clean stop leaves nothing unwritten.
      await this.persistence.snapshot(this.state);
    } finally {
      this.closed = true;
      this.writer.cancelTimer();
      await this.persistence.release();
    }
  }

  stats(): StoreStats {
    const { bot, agents, paused, unknown, archived } = this.book.count();
    const { fsyncs, bytes, snapshots } = this.persistence.stats();
    return {
      ...this.counters,
      fsyncs,
      journalBytes: bytes,
      snapshots,
      conversations: bot + agents + paused + unknown,
      coldConversations: coldCountIn(this.state),
      archived,
      pendingInbound: this.state.inbox.length,
      pendingEffects: this.state.pendingEffects.size,
    };
  }

  private async writeOnce(): Promise<void> {
    // The audit entries waiting go in the same transaction as the state's changes: one sync, not two.
    const entries = this.auditBuffer;
    this.auditBuffer = [];
    const started = performance.now();
    let bytes: number;
    try {
      bytes = await this.persistence.writeHot(this.state, entries);
    } catch (error) {
      this.auditBuffer = entries.concat(this.auditBuffer);
      throw error;
    }
    if (entries.length > 0) this.counters.appends += 1;
    if (bytes === 0) return;
    this.counters.hotFileBytes = bytes;
    this.counters.lastWriteMs = Math.round((performance.now() - started) * 10) / 10;
    this.counters.writes += 1;
  }

  private ensureOpen(): void {
    if (this.closed) throw new StoreError('closed', 'The store is closed; open it again to use it.');
  }

  private now(): number {
    return this.options.clock();
  }
}
