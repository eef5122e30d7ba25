import { z } from 'zod';
import { parseInput, requireId, validateInput } from '../parse-input.js';
import {
  auditEntrySchema,
  effectInputSchema,
  escalationInputSchema,
  escalationPatchSchema,
  inboundMentionSchema,
  mentionRef,
  ownerSchema,
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
  StoredCursor,
} from '../records.js';
import { StoreError } from '../store-error.js';
import { DAY_MS, type ResolvedStoreOptions } from '../store-options.js';
import type { ConversationFilter, DecisionInput, RecordedDecision, RetentionCutoffs, Store } from '../store.js';
import {
  archiveConversations,
  checkConversation,
  readConversation,
  updateConversationRows,
  writeConversation,
} from './conversation-rows.js';
import {
  type MetaRow,
  metaPatchSchema,
  publicMeta,
  readEffect,
  readEffects,
  seenIn,
  updateEffectStatus,
  writeCursor,
  writeEffect,
  writeEscalation,
  writeMeta,
} from './rows.js';
import type { SqlSession } from './sql-session.js';
import { applyRetentionRows, forgetContactRows, latestAudit, ownerCounts, pruneRows } from './sql-upkeep.js';

const anyJson = z.unknown();
const filterSchema = z.object({
  owner: ownerSchema.optional(),
  updatedSince: z.number().optional(),
  newest: z.number().int().nonnegative().optional(),
});

/**
 * The store over SQL rows, the same for SQLite, memory (SQLite `:memory:`) and PostgreSQL: each method is one task
 * of the session (`sql-session.ts`) that reads and writes the rows it needs. Kept in memory beside the rows: the
 * next effect number, the count of pending effects `stats` gives (read again after a rollback) and a new
 * database's meta row.
 */
export class SqlStore implements Store {
  private closed = false;
  private nextEffectSeq = 1;
  private pendingCount = 0;
  /** A new database's meta row, read as the meta row until one is written. */
  private readonly freshMeta: MetaRow;
  /** Settled once the counters are read (every call runs after it). */
  readonly ready: Promise<void>;

  constructor(
    private readonly db: SqlSession,
    private readonly options: ResolvedStoreOptions,
  ) {
    this.freshMeta = { createdAt: this.now(), values: {}, nextEscalationSeq: 1 };
    // Read again after a rollback. A new database's meta row goes with the first write (an open writes nothing),
    // again after a rollback may have undone it.
    const reread = async (): Promise<void> => {
      const sql = 'INSERT INTO bridge_meta (id, body) VALUES (1, ?) ON CONFLICT (id) DO NOTHING';
      this.db.beforeFirstWrite = () => this.db.write(sql, [JSON.stringify(this.freshMeta)]);
      this.pendingCount = await this.db.count("SELECT count(*) AS n FROM bridge_effects WHERE status = 'pending'");
    };
    this.db.afterRollback = reread;
    this.ready = this.db.run(async () => {
      this.nextEffectSeq = (await this.db.count('SELECT max(seq) AS n FROM bridge_effects')) + 1;
      await reread();
    });
  }

  /** Durable. */
  async recordInbound(mention: InboundMention) {
    const parsed = parseInput(inboundMentionSchema, mention, 'Inbound mention');
    return this.op(async () => {
      if (await seenIn(this.db, parsed.topicId, parsed.id)) return false;
      const ref = mentionRef(parsed.topicId, parsed.id);
      await this.db.write('INSERT INTO bridge_seen (ref, at) VALUES (?, ?)', [ref, this.now()]);
      await this.db.write('INSERT INTO bridge_mentions (ref, key, body) VALUES (?, ?, ?)', [ref, parsed.key, JSON.stringify(parsed)]);
      return true;
    }, true);
  }

  /** In `addedAt` then id order; service ids are numeric strings, so `9001` comes before `10000`. */
  async pendingInbound(key?: string) {
    const mentions = await this.op(() =>
      key === undefined
        ? this.db.bodies<InboundMention>('SELECT body FROM bridge_mentions')
        : this.db.bodies<InboundMention>('SELECT body FROM bridge_mentions WHERE key = ?', [key]),
    );
    const numeric = /^\d+$/;
    const byId = (a: string, b: string) => (numeric.test(a) && numeric.test(b) && a.length - b.length) || (a < b ? -1 : a > b ? 1 : 0);
    return mentions.sort((a, b) => a.addedAt - b.addedAt || byId(a.id, b.id));
  }

  async markInboundProcessed(topicId: string, id: string) {
    if (typeof topicId !== 'string') throw new StoreError('invalid', 'Topic id must be a string; nothing was changed.');
    requireId(id, 'Mention id');
    return this.op(async () => {
      const removed = await this.db.write('DELETE FROM bridge_mentions WHERE ref = ?', [mentionRef(topicId, id)]);
      if (removed === 0 && !(await seenIn(this.db, topicId, id))) {
        throw new StoreError('invalid', `Inbound mention ${id} of topic ${topicId} was never recorded; nothing was changed.`);
      }
    });
  }

  async hasSeen(topicId: string, id: string) {
    return this.op(() => seenIn(this.db, topicId, id));
  }

  async enqueueEffect(effect: EffectInput) {
    const parsed = parseInput(effectInputSchema, effect, 'Effect');
    // A twin enqueued a moment ago may not be committed yet: either way, return only once it is.
    return this.op(async () => (await this.addEffect(parsed)).effect, true);
  }

  async pendingEffects(contactKey?: string) {
    return this.op(() =>
      contactKey === undefined
        ? readEffects(this.db, "WHERE status = 'pending' ORDER BY seq")
        : readEffects(this.db, "WHERE contact_key = ? AND status = 'pending' ORDER BY seq", [contactKey]),
    );
  }

  async getEffect(key: string) {
    return this.op(() => readEffect(this.db, key));
  }

  async completeEffect(key: string, result?: unknown) {
    const copy = result === undefined ? {} : { result: parseInput(anyJson, result, 'Effect result') };
    // Once done only the key matters (it keeps the effect from running twice): the payload goes.
    return this.changeEffect(key, (effect) => (effect.status === 'done' ? undefined : { ...copy, status: 'done', payload: null }));
  }

  async failEffect(key: string, error: string, retryAt?: number) {
    if (retryAt !== undefined && !Number.isFinite(retryAt)) {
      throw new StoreError('invalid', `retryAt must be epoch milliseconds (got ${String(retryAt)}); nothing was changed.`);
    }
    return this.changeEffect(key, (effect) => {
      if (effect.status === 'done') throw new StoreError('invalid', `Effect ${key} is already done; it cannot fail afterwards.`);
      // Pending again at `retryAt`, or given up without it.
      return { status: retryAt === undefined ? 'failed' : 'pending', lastError: String(error), retryAt };
    });
  }

  async getCursor(topicId: string) {
    const [cursor] = await this.op(() => this.db.bodies<StoredCursor>('SELECT body FROM bridge_cursors WHERE topic = ?', [topicId]));
    return cursor?.value;
  }

  async setCursor(topicId: string, cursor: unknown) {
    const value = parseInput(anyJson, cursor, `Cursor of topic ${topicId}`);
    const topic = requireId(topicId, 'Topic id');
    return this.op(() => writeCursor(this.db, topic, { value, updatedAt: this.now() }));
  }

  async getMeta() {
    return this.op(async () => publicMeta(await this.readMeta()));
  }

  async setMeta(patch: { baselineAt?: number; values?: Record<string, unknown> }) {
    const parsed = parseInput(metaPatchSchema, patch, 'Meta patch');
    return this.op(async () => {
      const meta = await this.readMeta();
      if (parsed.baselineAt !== undefined) meta.baselineAt = parsed.baselineAt;
      if (parsed.values) meta.values = { ...meta.values, ...parsed.values };
      await writeMeta(this.db, meta);
      return publicMeta(meta);
    });
  }

  async getConversation(key: string) {
    return this.op(async () => (await readConversation(this.db, key)).record);
  }

  async saveConversation(record: ConversationRecord) {
    const checked = checkConversation(record, this.options);
    return this.op(() => writeConversation(this.db, checked));
  }

  async updateConversation(key: string, fn: (current: ConversationRecord | undefined) => ConversationRecord | undefined) {
    return this.op(() => updateConversationRows(this.db, key, fn, this.options));
  }

  async recordDecision(decision: DecisionInput, options: { wait?: 'durable' | 'applied' } = {}) {
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
      // The decided mark needs no performing: a finished effect keeps its key, status and result.
      await writeEffect(this.db, this.newEffect({ key: decidedKey, kind: 'decision', contactKey, payload: null }, 'done'));
      const effects: RecordedDecision['effects'] = [];
      for (const input of inputs) effects.push(await this.addEffect(input));
      return { recorded: true, conversation, effects };
    }, options.wait !== 'applied');
  }

  async listConversations(filter: ConversationFilter = {}) {
    const found: ConversationRecord[] = [];
    await this.eachConversation(filter, (record) => void found.push(record));
    return found;
  }

  async eachConversation(filter: ConversationFilter, visit: (record: ConversationRecord) => void | Promise<void>) {
    const { owner, updatedSince: since, newest } = validateInput(filterSchema, filter, 'Conversation filter');
    let sql = 'SELECT key FROM bridge_conversations WHERE archived_at IS NULL';
    if (owner !== undefined) sql += ' AND owner = ?';
    if (since !== undefined) sql += ' AND updated_at >= ?';
    if (newest !== undefined) sql += ' ORDER BY updated_at DESC LIMIT ?';
    const values = [owner, since, newest].filter((value) => value !== undefined);
    const keys = await this.op(() => this.db.all<{ key: string }>(sql, values));
    let visited = 0;
    for (const { key } of keys) {
      // Read at its turn, as it is then: one archived, given another owner or left behind since is skipped.
      const { record, archived } = await this.op(() => readConversation(this.db, key));
      if (!record || archived || (owner !== undefined && record.owner !== owner) || (since !== undefined && record.updatedAt < since))
        continue;
      visited += 1;
      await visit(record);
    }
    return visited;
  }

  async countByOwner() {
    return this.op(() => ownerCounts(this.db));
  }

  async archiveInactive(beforeMs?: number) {
    const cutoff = beforeMs ?? this.now() - this.options.retention.archiveAfterDays * DAY_MS;
    return this.op(() => archiveConversations(this.db, cutoff, this.now()), true);
  }

  async openEscalation(input: EscalationInput) {
    const parsed = parseInput(escalationInputSchema, input, 'Escalation');
    return this.op(async () => {
      const meta = await this.readMeta();
      const now = this.now();
      const id = `esc-${meta.nextEscalationSeq++}`;
      const escalation: Escalation = { ...parsed, id, status: parsed.status ?? 'open', createdAt: now, updatedAt: now };
      await writeMeta(this.db, meta);
      await writeEscalation(this.db, escalation);
      return escalation;
    });
  }

  async updateEscalation(id: string, patch: EscalationPatch) {
    // Its JSON copy holds only the fields given.
    const parsed = parseInput(escalationPatchSchema, patch, 'Escalation patch');
    requireId(id, 'Escalation id');
    return this.op(async () => {
      const [current] = await this.escalations('WHERE id = ?', [id]);
      if (!current) throw new StoreError('invalid', `No escalation ${id}; nothing was changed.`);
      const next: Escalation = { ...current, ...parsed, updatedAt: this.now() };
      await writeEscalation(this.db, next);
      return next;
    });
  }

  async getEscalation(id: string) {
    return (await this.op(() => this.escalations('WHERE id = ?', [id])))[0];
  }

  /** In the order they were opened. */
  async listEscalations(filter: { status?: EscalationStatus | EscalationStatus[]; contactKey?: string } = {}) {
    const { status, contactKey } = filter;
    const all = await this.op(() =>
      contactKey === undefined ? this.escalations('ORDER BY num') : this.escalations('WHERE contact_key = ? ORDER BY num', [contactKey]),
    );
    return status === undefined ? all : all.filter((e) => [status].flat().includes(e.status));
  }

  async audit(entry: AuditEntry) {
    const parsed = parseInput(auditEntrySchema, entry, 'Audit entry');
    return this.op(async () => void (await this.db.write('INSERT INTO bridge_audit (body) VALUES (?)', [JSON.stringify(parsed)])));
  }

  async listAudit(filter: { since?: number; limit?: number } = {}) {
    return this.op(() => latestAudit(this.db, filter, this.options.logger));
  }

  async prune(cutoffs: { seenBeforeMs?: number; auditBeforeMs?: number } = {}) {
    return this.op(() => pruneRows(this.db, cutoffs, this.options), true);
  }

  async applyRetention(cutoffs: RetentionCutoffs = {}) {
    return this.op(() => applyRetentionRows(this.db, cutoffs, this.options), true);
  }

  async forgetContact(contactKey: string, options: { dryRun?: boolean } = {}) {
    const key = requireId(contactKey, 'Contact key');
    return this.op(async () => {
      const result = await forgetContactRows(this.db, key, options.dryRun === true, this.options.logger);
      this.pendingCount -= options.dryRun === true ? 0 : result.pendingEffects;
      return result;
    }, true);
  }

  async flush() {
    if (!this.closed) await this.db.flush();
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.db.run(() => this.db.commit(), true);
    } finally {
      await this.db.run(() => this.db.driver.close());
    }
  }

  stats() {
    const { writes, bytes, lastWriteMs } = this.db.counters;
    return { writes, fsyncs: this.db.driver.syncs ? writes : 0, journalBytes: bytes, lastWriteMs, pendingEffects: this.pendingCount };
  }

  /** Runs `task` on the connection; refuses every call once closed. */
  private op<T>(task: () => Promise<T> | T, durable = false): Promise<T> {
    if (this.closed) throw new StoreError('closed', 'The store is closed; open it again to use it.');
    this.db.driver.assertUsable?.();
    return this.db.run(task, durable);
  }

  private now(): number {
    return this.options.clock();
  }

  private newEffect(input: EffectInput, status: 'pending' | 'done'): Effect {
    const now = this.now();
    return { ...input, seq: this.nextEffectSeq++, status, attempts: 0, createdAt: now, updatedAt: now };
  }

  /** Adds a pending effect unless its key is known (then returns the stored one). */
  private async addEffect(input: EffectInput): Promise<{ effect: Effect; created: boolean }> {
    const existing = await readEffect(this.db, input.key);
    if (existing) return { effect: existing, created: false };
    this.pendingCount += 1;
    return { effect: await writeEffect(this.db, this.newEffect(input, 'pending')), created: true };
  }

  /**
   * A status change: `change` gives the new fields (none: nothing to do), a try more is counted, and only the
   * status columns are written (`retryAt` goes unless given).
   */
  private changeEffect(key: string, change: (effect: Effect) => Partial<Effect> | undefined): Promise<Effect> {
    requireId(key, 'Effect key');
    return this.op(async () => {
      const effect = await readEffect(this.db, key);
      if (!effect) throw new StoreError('invalid', `No effect with key ${key} in the outbox; nothing was changed.`);
      const patch = change(effect);
      if (!patch) return effect;
      const next: Effect = { ...effect, retryAt: undefined, ...patch, attempts: effect.attempts + 1, updatedAt: this.now() };
      if (next.retryAt === undefined) delete next.retryAt;
      this.pendingCount += (next.status === 'pending' ? 1 : 0) - (effect.status === 'pending' ? 1 : 0);
      return updateEffectStatus(this.db, next);
    });
  }

  private escalations(where: string, values: string[] = []): Promise<Escalation[]> {
    return this.db.bodies<Escalation>(`SELECT body FROM bridge_escalation_rows ${where}`, values);
  }

  /** The meta row (our own JSON, checked when written); the new database's, not written yet, when there is none. */
  private async readMeta(): Promise<MetaRow> {
    const [meta] = await this.db.bodies<MetaRow>('SELECT body FROM bridge_meta WHERE id = 1');
    return meta ?? structuredClone(this.freshMeta);
  }
}
