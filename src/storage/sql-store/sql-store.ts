import { z } from 'zod';
import { parseInput, requireId } from '../parse-input.js';
import {
  auditEntrySchema,
  effectInputSchema,
  escalationInputSchema,
  escalationPatchSchema,
  inboundMentionSchema,
  mentionRef,
} from '../records.js';
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
} from '../records.js';
import { StoreError } from '../store-error.js';
import { DAY_MS } from '../store-options.js';
import type { ResolvedStoreOptions } from '../store-options.js';
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
} from '../store.js';
import {
  archiveConversations,
  checkConversation,
  checkFilter,
  updateConversationRows,
  readConversation,
  selectConversationKeys,
  writeConversation,
} from './conversation-rows.js';
import { insertMention, pendingMentionRows, seenIn } from './inbox-rows.js';
import {
  addEffect,
  completedEffect,
  failedEffect,
  pendingEffectRows,
  readEffect,
  requireEffect,
  updateEffectStatus,
} from './effect-rows.js';
import {
  listEscalationRows,
  metaPatchSchema,
  patchEscalation,
  publicMeta,
  readCursor,
  readEscalation,
  readMeta,
  writeCursor,
  writeEscalation,
  writeMeta,
} from './meta-rows.js';
import type { MetaRow } from './meta-rows.js';
import { applyRetentionRows, countRows, forgetContactRows, latestAudit, ownerCounts, pruneRows, readAuditRows } from './sql-upkeep.js';
import type { SqlSession } from './sql-session.js';

const anyJson = z.unknown();
/**
 * The store over SQL rows, the same for SQLite, memory (SQLite `:memory:`) and PostgreSQL: each method reads and
 * writes the rows it needs (`sql-session.ts` for how writes are grouped into transactions). Kept in memory beside the
 * rows: the next effect number, the counts `stats` gives (read again after a rollback) and a new database's meta row.
 */
export class SqlStore implements Store {
  private closed = false;
  private nextEffectSeq = 1;
  /** The meta row of a new database, until it is written. */
  private newMeta: MetaRow | undefined;
  private counts = { pendingEffects: 0, pendingInbound: 0, conversations: 0, archived: 0 };

  /** Settled once the counters are read and a new database has its meta row (every call runs after it). */
  readonly ready: Promise<void>;

  constructor(
    private readonly db: SqlSession,
    private readonly options: ResolvedStoreOptions,
  ) {
    this.ready = this.db.run(async () => {
      const max = await this.db.get<{ n: number | string | null }>('SELECT max(seq) AS n FROM bridge_effects');
      this.nextEffectSeq = Number(max?.n ?? 0) + 1;
      const meta = { createdAt: this.now(), values: {}, nextEscalationSeq: 1 };
      // A new database: its meta row goes with the first write (an open writes nothing), again if that one rolls back.
      const metaWithFirstWrite = async (): Promise<void> => {
        if (await this.db.get('SELECT 1 AS one FROM bridge_meta WHERE id = 1')) return;
        this.newMeta = meta;
        this.db.beforeFirstWrite = async () => {
          if (this.newMeta) await this.writeMeta(this.newMeta);
        };
      };
      await metaWithFirstWrite();
      await this.recount();
      this.db.afterRollback = async () => {
        await metaWithFirstWrite();
        await this.recount();
      };
    });
  }

  async recordInbound(mention: InboundMention): Promise<boolean> {
    const parsed = parseInput(inboundMentionSchema, mention, 'Inbound mention');
    return this.op(async () => {
      const added = await insertMention(this.db, parsed, this.now());
      if (added) this.counts.pendingInbound += 1;
      return added;
    }, true);
  }

  async pendingInbound(key?: string): Promise<InboundMention[]> {
    return this.op(() => pendingMentionRows(this.db, key));
  }

  async markInboundProcessed(topicId: string, id: string): Promise<void> {
    if (typeof topicId !== 'string') throw new StoreError('invalid', 'Topic id must be a string; nothing was changed.');
    requireId(id, 'Mention id');
    return this.op(async () => {
      const removed = await this.db.write('DELETE FROM bridge_mentions WHERE ref = ?', [mentionRef(topicId, id)]);
      this.counts.pendingInbound -= removed;
      if (removed === 0 && !(await seenIn(this.db, topicId, id))) {
        throw new StoreError('invalid', `Inbound mention ${id} of topic ${topicId} was never recorded; nothing was changed.`);
      }
    });
  }

  async hasSeen(topicId: string, id: string): Promise<boolean> {
    return this.op(() => seenIn(this.db, topicId, id));
  }

  async enqueueEffect(effect: EffectInput): Promise<Effect> {
    const parsed = parseInput(effectInputSchema, effect, 'Effect');
    // A twin enqueued a moment ago may not be committed yet: either way, return only once it is.
    return this.op(async () => (await this.addEffect(parsed, 'pending')).effect, true);
  }

  async pendingEffects(contactKey?: string): Promise<Effect[]> {
    return this.op(() => pendingEffectRows(this.db, contactKey));
  }

  async getEffect(key: string): Promise<Effect | undefined> {
    return this.op(() => readEffect(this.db, key));
  }

  async completeEffect(key: string, result?: unknown): Promise<Effect> {
    const copy = result === undefined ? undefined : parseInput(anyJson, result, 'Effect result');
    requireId(key, 'Effect key');
    return this.op(async () => {
      const effect = await requireEffect(this.db, key);
      if (effect.status === 'done') return effect;
      if (effect.status === 'pending') this.counts.pendingEffects -= 1;
      return updateEffectStatus(this.db, completedEffect(effect, copy, this.now()));
    });
  }

  async failEffect(key: string, error: string, retryAt?: number): Promise<Effect> {
    if (retryAt !== undefined && !Number.isFinite(retryAt)) {
      throw new StoreError('invalid', `retryAt must be epoch milliseconds (got ${String(retryAt)}); nothing was changed.`);
    }
    requireId(key, 'Effect key');
    return this.op(async () => {
      const effect = await requireEffect(this.db, key);
      if (effect.status === 'done') throw new StoreError('invalid', `Effect ${key} is already done; it cannot fail afterwards.`);
      const next = failedEffect(effect, String(error), retryAt, this.now());
      this.counts.pendingEffects += (next.status === 'pending' ? 1 : 0) - (effect.status === 'pending' ? 1 : 0);
      return updateEffectStatus(this.db, next);
    });
  }

  async getCursor(topicId: string): Promise<unknown> {
    return this.op(() => readCursor(this.db, topicId));
  }

  async setCursor(topicId: string, cursor: unknown): Promise<void> {
    const value = parseInput(anyJson, cursor, `Cursor of topic ${topicId}`);
    const topic = requireId(topicId, 'Topic id');
    return this.op(() => writeCursor(this.db, topic, { value, updatedAt: this.now() }));
  }

  async getMeta(): Promise<StoreMeta> {
    return this.op(async () => publicMeta(await this.readMeta()));
  }

  async setMeta(patch: { baselineAt?: number; values?: Record<string, unknown> }): Promise<StoreMeta> {
    const parsed = parseInput(metaPatchSchema, patch, 'Meta patch');
    return this.op(async () => {
      const meta = await this.readMeta();
      if (parsed.baselineAt !== undefined) meta.baselineAt = parsed.baselineAt;
      if (parsed.values) meta.values = { ...meta.values, ...parsed.values };
      await this.writeMeta(meta);
      return publicMeta(meta);
    });
  }

  async getConversation(key: string): Promise<ConversationRecord | undefined> {
    return this.op(async () => (await readConversation(this.db, key)).record);
  }

  async saveConversation(record: ConversationRecord): Promise<ConversationRecord> {
    const checked = checkConversation(record, this.options);
    return this.op(() => writeConversation(this.db, checked, undefined));
  }

  async updateConversation(
    key: string,
    fn: (current: ConversationRecord | undefined) => ConversationRecord | undefined,
  ): Promise<ConversationRecord | undefined> {
    return this.op(() => updateConversationRows(this.db, key, fn, this.options));
  }

  async recordDecision(decision: DecisionInput, options: { wait?: 'durable' | 'applied' } = {}): Promise<RecordedDecision> {
    const contactKey = requireId(decision.contactKey, 'Contact key');
    const decidedKey = requireId(decision.decidedKey, 'Decision key');
    const inputs = decision.effects.map((e, i) => parseInput(effectInputSchema, { ...e, contactKey }, `Effect ${i + 1} of the decision`));
    if (inputs.some((e) => e.key === decidedKey)) {
      throw new StoreError('invalid', `Effect key ${decidedKey} is also the decision's own key; nothing was changed.`);
    }
    // One task: the conversation, the effects and the decided mark go in the same transaction, or none of them.
    return this.op(async (): Promise<RecordedDecision> => {
      if (await readEffect(this.db, decidedKey)) {
        const effects = (await Promise.all(inputs.map((input) => readEffect(this.db, input.key)))).flatMap((effect) =>
          effect ? [{ effect, created: false }] : [],
        );
        return { recorded: false, conversation: (await readConversation(this.db, contactKey)).record, effects };
      }
      const conversation = await updateConversationRows(this.db, contactKey, decision.update, this.options);
      await this.addEffect({ key: decidedKey, kind: 'decision', contactKey, payload: null }, 'done');
      const effects: RecordedDecision['effects'] = [];
      for (const input of inputs) effects.push(await this.addEffect(input, 'pending'));
      return { recorded: true, conversation, effects };
    }, options.wait !== 'applied');
  }

  async listConversations(filter: ConversationFilter = {}): Promise<ConversationRecord[]> {
    const found: ConversationRecord[] = [];
    await this.eachConversation(filter, (record) => void found.push(record));
    return found;
  }

  async eachConversation(filter: ConversationFilter, visit: (record: ConversationRecord) => void | Promise<void>): Promise<number> {
    const { owner, since, newest } = checkFilter(filter);
    const keys = await this.op(() => selectConversationKeys(this.db, { owner, since, newest }));
    let visited = 0;
    for (const key of keys) {
      // Read at its turn, as it is then: one archived, given another owner or left behind since is skipped.
      const { record, archived } = await this.op(() => readConversation(this.db, key));
      if (!record || archived || (owner !== undefined && record.owner !== owner) || (since !== undefined && record.updatedAt < since))
        continue;
      visited += 1;
      await visit(record);
    }
    return visited;
  }

  async countByOwner(): Promise<OwnerCounts> {
    return this.op(async () => {
      const counts = await ownerCounts(this.db);
      this.counts.conversations = counts.bot + counts.agents + counts.paused + counts.unknown;
      this.counts.archived = counts.archived;
      return counts;
    });
  }

  async archiveInactive(beforeMs?: number): Promise<number> {
    const cutoff = beforeMs ?? this.now() - this.options.retention.archiveAfterDays * DAY_MS;
    return this.op(() => archiveConversations(this.db, cutoff, this.now()), true);
  }

  async openEscalation(input: EscalationInput): Promise<Escalation> {
    const parsed = parseInput(escalationInputSchema, input, 'Escalation');
    return this.op(async () => {
      const meta = await this.readMeta();
      const now = this.now();
      const escalation: Escalation = {
        ...parsed,
        id: `esc-${meta.nextEscalationSeq++}`,
        status: parsed.status ?? 'open',
        createdAt: now,
        updatedAt: now,
      };
      await this.writeMeta(meta);
      await writeEscalation(this.db, escalation);
      return escalation;
    });
  }

  async updateEscalation(id: string, patch: EscalationPatch): Promise<Escalation> {
    const parsed = parseInput(escalationPatchSchema, patch, 'Escalation patch');
    requireId(id, 'Escalation id');
    return this.op(() => patchEscalation(this.db, id, parsed, this.now()));
  }

  async getEscalation(id: string): Promise<Escalation | undefined> {
    return this.op(() => readEscalation(this.db, id));
  }

  async listEscalations(filter: { status?: EscalationStatus | EscalationStatus[]; contactKey?: string } = {}): Promise<Escalation[]> {
    return this.op(() => listEscalationRows(this.db, filter));
  }

  async audit(entry: AuditEntry): Promise<void> {
    const parsed = parseInput(auditEntrySchema, entry, 'Audit entry');
    return this.op(async () => void (await this.db.write('INSERT INTO bridge_audit (body) VALUES (?)', [JSON.stringify(parsed)])));
  }

  async listAudit(filter: { since?: number; limit?: number } = {}): Promise<AuditEntry[]> {
    return latestAudit(await this.op(() => readAuditRows(this.db, this.options.logger)), filter);
  }

  async prune(cutoffs: { seenBeforeMs?: number; auditBeforeMs?: number } = {}): Promise<PruneResult> {
    const now = this.now();
    const { seenIdsDays, auditDays, surveyDays } = this.options.retention;
    const before = {
      seen: cutoffs.seenBeforeMs ?? now - seenIdsDays * DAY_MS,
      audit: cutoffs.auditBeforeMs ?? now - auditDays * DAY_MS,
      survey: now - surveyDays * DAY_MS,
    };
    return this.op(() => pruneRows(this.db, before, this.options.logger), true);
  }

  async applyRetention(cutoffs: RetentionCutoffs = {}): Promise<RetentionResult> {
    return this.op(() => applyRetentionRows(this.db, cutoffs, this.options), true);
  }

  async forgetContact(contactKey: string, options: { dryRun?: boolean } = {}): Promise<ForgetResult> {
    const key = requireId(contactKey, 'Contact key');
    return this.op(async () => {
      const result = await forgetContactRows(this.db, key, options.dryRun === true, this.options.logger);
      if (result.known && options.dryRun !== true) await this.recount();
      return result;
    }, true);
  }

  async flush(): Promise<void> {
    if (this.closed) return;
    await this.db.flush();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.db.commitNow();
    } finally {
      await this.db.run(() => this.db.driver.close());
    }
  }

  stats(): StoreStats {
    const { writes, bytes, lastWriteMs, writeErrors } = this.db.counters;
    const fsyncs = this.db.driver.syncs ? writes : 0;
    return { writes, writeErrors, fsyncs, journalBytes: bytes, lastWriteMs, ...this.counts };
  }

  /** Runs `task` on the connection; refuses every call once closed. */
  private op<T>(task: () => Promise<T>, durable = false): Promise<T> {
    if (this.closed) throw new StoreError('closed', 'The store is closed; open it again to use it.');
    this.db.driver.assertUsable?.();
    return this.db.run(task, durable);
  }

  private now(): number {
    return this.options.clock();
  }

  private async addEffect(input: EffectInput, status: 'pending' | 'done'): Promise<{ effect: Effect; created: boolean }> {
    const added = await addEffect(this.db, input, () => this.nextEffectSeq++, this.now(), status);
    if (added.created && status === 'pending') this.counts.pendingEffects += 1;
    return added;
  }

  private readMeta(): Promise<MetaRow> {
    return readMeta(this.db, this.newMeta);
  }

  private writeMeta(meta: MetaRow): Promise<void> {
    this.newMeta = undefined;
    return writeMeta(this.db, meta);
  }

  /** The counts `stats` gives, read again from the rows. */
  private async recount(): Promise<void> {
    this.counts = await countRows(this.db);
  }
}
