import { z } from 'zod';
import { parseInput, requireId, validateInput } from '../parse-input.js';
import {
  ANY_TOPIC,
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
  readConversation,
  selectConversationKeys,
  writeConversation,
} from './conversation-rows.js';
import { addEffect, pendingEffectRows, readEffect, writeEffect } from './effect-rows.js';
import { applyRetentionRows, forgetContactRows, pruneRows, readAuditRows } from './sql-upkeep.js';
import type { SqlSession } from './sql-session.js';

const DEFAULT_AUDIT_LIMIT = 100;
const anyJson = z.unknown();
const metaPatchSchema = z.object({ baselineAt: z.number().optional(), values: z.record(z.string(), z.unknown()).optional() });
const metaRowSchema = z.object({
  createdAt: z.number(),
  baselineAt: z.number().optional(),
  values: z.record(z.string(), z.unknown()),
  nextEscalationSeq: z.number().int(),
});
type MetaRow = z.infer<typeof metaRowSchema>;

/** Service ids are numeric strings: compare them as numbers so `9001` sorts before `10000`. */
function compareIds(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b) && a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The store over SQL rows, the same for SQLite, memory (SQLite `:memory:`) and PostgreSQL: each method reads and
 * writes the rows it needs (`sql-session.ts` for how writes are grouped into transactions), nothing is mirrored in
 * memory but two counters (the next effect number, the pending effects count for `stats`).
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
      if (!(await this.db.get('SELECT 1 AS one FROM bridge_meta WHERE id = 1'))) {
        // A new database: its meta row goes with the first write (an open writes nothing).
        const meta = { createdAt: this.now(), values: {}, nextEscalationSeq: 1 };
        this.newMeta = meta;
        this.db.beforeFirstWrite = async () => {
          if (this.newMeta) await this.writeMeta(this.newMeta);
        };
      }
      await this.recount();
    });
  }

  async recordInbound(mention: InboundMention): Promise<boolean> {
    const parsed = parseInput(inboundMentionSchema, this.check(mention), 'Inbound mention');
    return this.op(async () => {
      if (await this.seen(parsed.topicId, parsed.id)) return false;
      const ref = mentionRef(parsed.topicId, parsed.id);
      await this.db.write('INSERT INTO bridge_seen (ref, at) VALUES (?, ?)', [ref, this.now()]);
      await this.db.write('INSERT INTO bridge_mentions (ref, key, body) VALUES (?, ?, ?)', [ref, parsed.key, JSON.stringify(parsed)]);
      this.counts.pendingInbound += 1;
      return true;
    }, true);
  }

  async pendingInbound(key?: string): Promise<InboundMention[]> {
    return this.op(async () => {
      const rows =
        key === undefined
          ? await this.db.all<{ body: string }>('SELECT body FROM bridge_mentions')
          : await this.db.all<{ body: string }>('SELECT body FROM bridge_mentions WHERE key = ?', [key]);
      return rows.map((row) => JSON.parse(row.body) as InboundMention).sort((a, b) => a.addedAt - b.addedAt || compareIds(a.id, b.id));
    });
  }

  async markInboundProcessed(topicId: string, id: string): Promise<void> {
    this.check(topicId);
    if (typeof topicId !== 'string') throw new StoreError('invalid', 'Topic id must be a string; nothing was changed.');
    requireId(id, 'Mention id');
    return this.op(async () => {
      const removed = await this.db.write('DELETE FROM bridge_mentions WHERE ref = ?', [mentionRef(topicId, id)]);
      this.counts.pendingInbound -= removed;
      if (removed === 0 && !(await this.seen(topicId, id))) {
        throw new StoreError('invalid', `Inbound mention ${id} of topic ${topicId} was never recorded; nothing was changed.`);
      }
    });
  }

  async hasSeen(topicId: string, id: string): Promise<boolean> {
    this.check(id);
    return this.op(() => this.seen(topicId, id));
  }

  async enqueueEffect(effect: EffectInput): Promise<Effect> {
    const parsed = parseInput(effectInputSchema, this.check(effect), 'Effect');
    // A twin enqueued a moment ago may not be committed yet: either way, return only once it is.
    return this.op(async () => (await this.addEffect(parsed, 'pending')).effect, true);
  }

  async pendingEffects(contactKey?: string): Promise<Effect[]> {
    this.check(contactKey);
    return this.op(() => pendingEffectRows(this.db, contactKey));
  }

  async getEffect(key: string): Promise<Effect | undefined> {
    this.check(key);
    return this.op(() => readEffect(this.db, key));
  }

  async completeEffect(key: string, result?: unknown): Promise<Effect> {
    const copy = result === undefined ? undefined : parseInput(anyJson, this.check(result), 'Effect result');
    requireId(key, 'Effect key');
    return this.op(async () => {
      const effect = await this.requireEffect(key);
      if (effect.status === 'done') return effect;
      // Once done only the key matters (it keeps the effect from running twice): the payload goes.
      const done: Effect = { ...effect, payload: null, status: 'done', attempts: effect.attempts + 1, updatedAt: this.now() };
      delete done.retryAt;
      if (copy !== undefined) done.result = copy;
      if (effect.status === 'pending') this.counts.pendingEffects -= 1;
      await writeEffect(this.db, done);
      return done;
    });
  }

  async failEffect(key: string, error: string, retryAt?: number): Promise<Effect> {
    this.check(key);
    if (retryAt !== undefined && !Number.isFinite(retryAt)) {
      throw new StoreError('invalid', `retryAt must be epoch milliseconds (got ${String(retryAt)}); nothing was changed.`);
    }
    requireId(key, 'Effect key');
    return this.op(async () => {
      const effect = await this.requireEffect(key);
      if (effect.status === 'done') throw new StoreError('invalid', `Effect ${key} is already done; it cannot fail afterwards.`);
      const status = retryAt === undefined ? 'failed' : 'pending';
      const failed: Effect = { ...effect, status, attempts: effect.attempts + 1, lastError: String(error), updatedAt: this.now() };
      if (retryAt === undefined) delete failed.retryAt;
      else failed.retryAt = retryAt;
      if (effect.status === 'pending' && status === 'failed') this.counts.pendingEffects -= 1;
      await writeEffect(this.db, failed);
      return failed;
    });
  }

  async getCursor(topicId: string): Promise<unknown> {
    this.check(topicId);
    return this.op(async () => {
      const row = await this.db.get<{ body: string }>('SELECT body FROM bridge_cursors WHERE topic = ?', [topicId]);
      return row === undefined ? undefined : (JSON.parse(row.body) as { value: unknown }).value;
    });
  }

  async setCursor(topicId: string, cursor: unknown): Promise<void> {
    const value = parseInput(anyJson, this.check(cursor), `Cursor of topic ${topicId}`);
    const topic = requireId(topicId, 'Topic id');
    return this.op(async () => {
      await this.db.write('INSERT INTO bridge_cursors (topic, body) VALUES (?, ?) ON CONFLICT (topic) DO UPDATE SET body = excluded.body', [
        topic,
        JSON.stringify({ value, updatedAt: this.now() }),
      ]);
    });
  }

  async getMeta(): Promise<StoreMeta> {
    this.check();
    return this.op(async () => publicMeta(await this.readMeta()));
  }

  async setMeta(patch: { baselineAt?: number; values?: Record<string, unknown> }): Promise<StoreMeta> {
    const parsed = parseInput(metaPatchSchema, this.check(patch), 'Meta patch');
    return this.op(async () => {
      const meta = await this.readMeta();
      if (parsed.baselineAt !== undefined) meta.baselineAt = parsed.baselineAt;
      if (parsed.values) meta.values = { ...meta.values, ...parsed.values };
      await this.writeMeta(meta);
      return publicMeta(meta);
    });
  }

  async getConversation(key: string): Promise<ConversationRecord | undefined> {
    this.check(key);
    return this.op(async () => (await readConversation(this.db, key)).record);
  }

  async saveConversation(record: ConversationRecord): Promise<ConversationRecord> {
    const checked = checkConversation(this.check(record), this.options);
    return this.op(async () => {
      const before = await this.db.get<{ archived_at: number | null }>('SELECT archived_at FROM bridge_conversations WHERE key = ?', [
        checked.key,
      ]);
      const saved = await writeConversation(this.db, checked, undefined);
      this.countSaved(before);
      return saved;
    });
  }

  async updateConversation(
    key: string,
    fn: (current: ConversationRecord | undefined) => ConversationRecord | undefined,
  ): Promise<ConversationRecord | undefined> {
    this.check(key);
    return this.op(() => this.update(key, fn));
  }

  async recordDecision(decision: DecisionInput, options: { wait?: 'durable' | 'applied' } = {}): Promise<RecordedDecision> {
    this.check(decision);
    const contactKey = requireId(decision.contactKey, 'Contact key');
    const decidedKey = requireId(decision.decidedKey, 'Decision key');
    const inputs = decision.effects.map((e, i) => parseInput(effectInputSchema, { ...e, contactKey }, `Effect ${i + 1} of the decision`));
    if (inputs.some((e) => e.key === decidedKey)) {
      throw new StoreError('invalid', `Effect key ${decidedKey} is also the decision's own key; nothing was changed.`);
    }
    // One task: the conversation, the effects and the decided mark go in the same transaction, or none of them.
    return this.op(async (): Promise<RecordedDecision> => {
      if (await readEffect(this.db, decidedKey)) {
        const effects: RecordedDecision['effects'] = [];
        for (const input of inputs) {
          const effect = await readEffect(this.db, input.key);
          if (effect) effects.push({ effect, created: false });
        }
        return { recorded: false, conversation: (await readConversation(this.db, contactKey)).record, effects };
      }
      const conversation = await this.update(contactKey, decision.update);
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
    this.check(filter);
    const owner = filter.owner === undefined ? undefined : parseInput(ownerSchema, filter.owner, 'Owner filter');
    const since = filter.updatedSince;
    if (since !== undefined && !Number.isFinite(since)) {
      throw new StoreError('invalid', 'updatedSince must be a number of epoch milliseconds; nothing was read.');
    }
    const newest = filter.newest;
    if (newest !== undefined && !(Number.isInteger(newest) && newest >= 0)) {
      throw new StoreError('invalid', 'newest must be a whole number of conversations; nothing was read.');
    }
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
    this.check();
    return this.op(async () => {
      await this.recount();
      const counts: OwnerCounts = { bot: 0, agents: 0, paused: 0, unknown: 0, archived: 0 };
      for (const row of await this.db.all<{ owner: string | null; n: number | string }>(
        'SELECT owner, count(*) AS n FROM bridge_conversations GROUP BY owner',
      )) {
        const owner = row.owner === null ? 'archived' : ownerSchema.safeParse(row.owner).data;
        if (owner) counts[owner] += Number(row.n);
      }
      return counts;
    });
  }

  async archiveInactive(beforeMs?: number): Promise<number> {
    this.check();
    const cutoff = beforeMs ?? this.now() - this.options.retention.archiveAfterDays * DAY_MS;
    return this.op(async () => {
      const moved = await archiveConversations(this.db, cutoff, this.now());
      this.counts.conversations -= moved;
      this.counts.archived += moved;
      return moved;
    }, true);
  }

  async openEscalation(input: EscalationInput): Promise<Escalation> {
    const parsed = parseInput(escalationInputSchema, this.check(input), 'Escalation');
    return this.op(async () => {
      const meta = await this.readMeta();
      const escalation: Escalation = {
        ...parsed,
        id: `esc-${meta.nextEscalationSeq}`,
        status: parsed.status ?? 'open',
        createdAt: this.now(),
        updatedAt: this.now(),
      };
      meta.nextEscalationSeq += 1;
      await this.writeMeta(meta);
      await this.writeEscalation(escalation);
      return escalation;
    });
  }

  async updateEscalation(id: string, patch: EscalationPatch): Promise<Escalation> {
    const parsed = parseInput(escalationPatchSchema, this.check(patch), 'Escalation patch');
    requireId(id, 'Escalation id');
    return this.op(async () => {
      const current = await this.readEscalation(id);
      if (!current) throw new StoreError('invalid', `No escalation ${id}; nothing was changed.`);
      const next: Escalation = { ...current, updatedAt: this.now() };
      for (const [field, value] of Object.entries(parsed)) if (value !== undefined) Object.assign(next, { [field]: value });
      await this.writeEscalation(next);
      return next;
    });
  }

  async getEscalation(id: string): Promise<Escalation | undefined> {
    this.check(id);
    return this.op(() => this.readEscalation(id));
  }

  async listEscalations(filter: { status?: EscalationStatus | EscalationStatus[]; contactKey?: string } = {}): Promise<Escalation[]> {
    this.check(filter);
    const statuses = filter.status === undefined ? undefined : new Set([filter.status].flat());
    return this.op(async () => {
      const rows =
        filter.contactKey === undefined
          ? await this.db.all<{ body: string }>('SELECT body FROM bridge_escalation_rows ORDER BY num')
          : await this.db.all<{ body: string }>('SELECT body FROM bridge_escalation_rows WHERE contact_key = ? ORDER BY num', [
              filter.contactKey,
            ]);
      return rows.map((row) => JSON.parse(row.body) as Escalation).filter((e) => statuses === undefined || statuses.has(e.status));
    });
  }

  async audit(entry: AuditEntry): Promise<void> {
    const parsed = parseInput(auditEntrySchema, this.check(entry), 'Audit entry');
    return this.op(async () => void (await this.db.write('INSERT INTO bridge_audit (body) VALUES (?)', [JSON.stringify(parsed)])));
  }

  async listAudit(filter: { since?: number; limit?: number } = {}): Promise<AuditEntry[]> {
    this.check(filter);
    const limit = Math.max(0, Math.floor(filter.limit ?? DEFAULT_AUDIT_LIMIT));
    const since = filter.since ?? Number.NEGATIVE_INFINITY;
    const entries = await this.op(() => readAuditRows(this.db, this.options.logger));
    const kept = entries.map(([, entry]) => entry).filter((entry) => entry.at >= since);
    return limit === 0 ? [] : kept.slice(-limit);
  }

  async prune(cutoffs: { seenBeforeMs?: number; auditBeforeMs?: number } = {}): Promise<PruneResult> {
    this.check(cutoffs);
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
    this.check(cutoffs);
    return this.op(() => applyRetentionRows(this.db, cutoffs, this.options), true);
  }

  async forgetContact(contactKey: string, options: { dryRun?: boolean } = {}): Promise<ForgetResult> {
    this.check(contactKey);
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
      await this.db.flush();
    } finally {
      await this.db.run(() => this.db.driver.close());
    }
  }

  stats(): StoreStats {
    const { writes, bytes, lastWriteMs, writeErrors } = this.db.counters;
    return {
      writes,
      appends: 0,
      writeErrors,
      hotFileBytes: 0,
      fsyncs: this.db.driver.dialect === 'sqlite' ? writes : 0,
      journalBytes: bytes,
      snapshots: 0,
      lastWriteMs,
      conversations: this.counts.conversations,
      coldConversations: 0,
      archived: this.counts.archived,
      pendingInbound: this.counts.pendingInbound,
      pendingEffects: this.counts.pendingEffects,
    };
  }

  private op<T>(task: () => Promise<T>, durable = false): Promise<T> {
    this.check();
    this.db.driver.assertUsable?.();
    return this.db.run(task, durable);
  }

  /** Refuses every call once closed; passes its argument through. */
  private check<T>(value?: T): T {
    if (this.closed) throw new StoreError('closed', 'The store is closed; open it again to use it.');
    return value as T;
  }

  private now(): number {
    return this.options.clock();
  }

  private async seen(topicId: string, id: string): Promise<boolean> {
    const rows = await this.db.all('SELECT 1 AS one FROM bridge_seen WHERE ref = ? OR ref = ?', [
      mentionRef(topicId, id),
      mentionRef(ANY_TOPIC, id),
    ]);
    return rows.length > 0;
  }

  private async update(
    key: string,
    fn: (current: ConversationRecord | undefined) => ConversationRecord | undefined,
  ): Promise<ConversationRecord | undefined> {
    const { record, lines, archived } = await readConversation(this.db, key);
    const next = fn(record);
    if (next === undefined) return record;
    const checked = checkConversation(next, this.options);
    if (checked.key !== key)
      throw new StoreError('invalid', `updateConversation(${key}) returned a record for ${checked.key}; nothing was changed.`);
    const saved = await writeConversation(this.db, checked, archived ? { rows: [] } : lines);
    this.countSaved(record === undefined ? undefined : { archived_at: archived ? 1 : null });
    return saved;
  }

  private countSaved(before: { archived_at: number | null } | undefined): void {
    if (before === undefined || before.archived_at !== null) this.counts.conversations += 1;
    if (before !== undefined && before.archived_at !== null) this.counts.archived -= 1;
  }

  private async addEffect(input: EffectInput, status: 'pending' | 'done'): Promise<{ effect: Effect; created: boolean }> {
    const added = await addEffect(this.db, input, () => this.nextEffectSeq++, this.now(), status);
    if (added.created && status === 'pending') this.counts.pendingEffects += 1;
    return added;
  }

  private async requireEffect(key: string): Promise<Effect> {
    const effect = await readEffect(this.db, key);
    if (!effect) throw new StoreError('invalid', `No effect with key ${key} in the outbox; nothing was changed.`);
    return effect;
  }

  private async readMeta(): Promise<MetaRow> {
    const row = await this.db.get<{ body: string }>('SELECT body FROM bridge_meta WHERE id = 1');
    if (!row && this.newMeta) return structuredClone(this.newMeta);
    if (!row) throw new StoreError('corrupt', 'The meta row (bridge_meta) is missing.');
    return validateInput(metaRowSchema, JSON.parse(row.body), 'The meta row (bridge_meta)');
  }

  private async writeMeta(meta: MetaRow): Promise<void> {
    this.newMeta = undefined;
    await this.db.write('INSERT INTO bridge_meta (id, body) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body', [
      JSON.stringify(meta),
    ]);
  }

  private async readEscalation(id: string): Promise<Escalation | undefined> {
    const row = await this.db.get<{ body: string }>('SELECT body FROM bridge_escalation_rows WHERE id = ?', [id]);
    return row && (JSON.parse(row.body) as Escalation);
  }

  private async writeEscalation(e: Escalation): Promise<void> {
    await this.db.write(
      'INSERT INTO bridge_escalation_rows (id, num, contact_key, status, updated_at, body) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at, body = excluded.body',
      [e.id, Number(e.id.slice('esc-'.length)) || 0, e.contactKey, e.status, e.updatedAt, JSON.stringify(e)],
    );
  }

  /** The counts `stats` gives, read again from the rows. */
  private async recount(): Promise<void> {
    const n = async (sql: string) => Number((await this.db.get<{ n: number | string }>(sql))?.n ?? 0);
    this.counts = {
      pendingEffects: await n("SELECT count(*) AS n FROM bridge_effects WHERE status = 'pending'"),
      pendingInbound: await n('SELECT count(*) AS n FROM bridge_mentions'),
      conversations: await n('SELECT count(*) AS n FROM bridge_conversations WHERE archived_at IS NULL'),
      archived: await n('SELECT count(*) AS n FROM bridge_conversations WHERE archived_at IS NOT NULL'),
    };
  }
}

function publicMeta(meta: MetaRow): StoreMeta {
  const { createdAt, baselineAt, values } = meta;
  return baselineAt === undefined ? { createdAt, values } : { createdAt, baselineAt, values };
}
