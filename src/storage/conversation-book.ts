import type { HotState } from './hot-state.js';
import { jsonTextOf, parseInput, validateInput } from './parse-input.js';
import type { Persistence } from './persistence.js';
import { conversationKey, conversationSchema, ownerSchema } from './records.js';
import type { ConversationRecord, Owner } from './records.js';
import {
  boundTranscript,
  countByOwnerIn,
  entryOf,
  inactiveConversationsIn,
  isCold,
  isHot,
  isLive,
  listConversationsIn,
  recordOf,
} from './state/conversations.js';
import type { LiveSlot } from './state/conversations.js';
import { newestSlots } from './newest-slots.js';
import { StoreError } from './store-error.js';
import { DAY_MS } from './store-options.js';
import type { ResolvedStoreOptions } from './store-options.js';
import type { ConversationFilter, OwnerCounts } from './store.js';

/** A cold read races only with a save or an archiving of the same conversation: a few tries always settle it. */
const MAX_COLD_READS = 5;

/** The conversations part of the store: the hot set, the archive behind it, and moves between the two. */
export class ConversationBook {
  /** Archiving and compaction take turns: a copy just appended must not be compacted away before its marker is set. */
  private archiveTurn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly state: HotState,
    private readonly persistence: Persistence,
    private readonly options: ResolvedStoreOptions,
    private readonly changed: (what: 'hot' | 'archive') => void,
  ) {}

  get(key: string): Promise<ConversationRecord | undefined> {
    const slot = this.state.conversations.get(key);
    return isHot(slot) ? Promise.resolve(recordOf(slot)) : this.slow(key);
  }

  save(record: ConversationRecord): ConversationRecord {
    return this.put(validateInput(conversationSchema, record, 'Conversation'));
  }

  /**
   * `alongside`, when given, runs right after the record is saved (or left as it is), without yielding in between:
   * whatever it changes goes out in the same group commit as the record (one journal record, one transaction).
   */
  async update(
    key: string,
    fn: (current: ConversationRecord | undefined) => ConversationRecord | undefined,
    alongside?: () => void,
  ): Promise<ConversationRecord | undefined> {
    // A hot record is read, changed and saved without yielding, so no other update can slip in between; a cold or
    // archived one is read again when its slot changed while it was read (another update came first).
    let current: ConversationRecord | undefined;
    for (let attempt = 0; ; attempt += 1) {
      const slot = this.state.conversations.get(key);
      current = isHot(slot) ? recordOf(slot) : await this.slow(key);
      if (this.state.conversations.get(key) === slot) break;
      if (attempt >= MAX_COLD_READS) throw new StoreError('io', `Conversation ${key} kept changing while it was read; try again.`);
    }
    const next = fn(current);
    if (next === undefined) {
      alongside?.();
      return current;
    }
    const parsed = validateInput(conversationSchema, next, 'Conversation');
    if (parsed.key !== key) {
      throw new StoreError('invalid', `updateConversation(${key}) returned a record for ${parsed.key}; nothing was changed.`);
    }
    const saved = this.put(parsed);
    alongside?.();
    return saved;
  }

  async list(filter: ConversationFilter): Promise<ConversationRecord[]> {
    const found: ConversationRecord[] = [];
    await this.each(filter, (record) => {
      found.push(record);
    });
    return found;
  }

  /**
   * The conversations `list` would give, one at a time: each is read (from memory or disk) only when its turn
   * comes, as it is then, and `visit` is awaited before the next, so a pass over thousands holds one record.
   * One that left the hot set or changed owner before its turn is skipped. Returns how many were visited.
   */
  async each(filter: ConversationFilter, visit: (record: ConversationRecord) => void | Promise<void>): Promise<number> {
    const { owner, since, slots } = this.select(filter);
    let visited = 0;
    for (const [key] of slots) {
      const record = await this.readLive(key);
      if (!record || (owner !== undefined && record.owner !== owner) || (since !== undefined && record.updatedAt < since)) continue;
      visited += 1;
      await visit(record);
    }
    return visited;
  }

  count(): OwnerCounts {
    return countByOwnerIn(this.state);
  }

  archiveInactive(beforeMs: number | undefined): Promise<number> {
    return this.inTurn(async () => {
      const cutoff = beforeMs ?? this.options.clock() - this.options.retention.archiveAfterDays * DAY_MS;
      const candidates = inactiveConversationsIn(this.state, cutoff);
      if (candidates.length === 0) return 0;
      const copies: Array<{ key: string; json: string }> = [];
      const kept: typeof candidates = [];
      for (const [key, slot] of candidates) {
        const json = isHot(slot) ? slot.json : await this.persistence.readCold(key, slot);
        // A cold one that moved meanwhile was touched or re-filed: it waits for the next run.
        if (json === undefined) continue;
        copies.push({ key, json });
        kept.push([key, slot]);
      }
      if (copies.length === 0) return 0;
      await this.persistence.appendArchive(copies);
      this.changed('archive');
      const now = this.options.clock();
      let moved = 0;
      for (const [key, slot] of kept) {
        // A record saved while the archive was being written is newer than the archived copy: it stays hot.
        if (this.state.conversations.get(key) !== slot) continue;
        this.state.conversations.set(key, { archivedAt: now });
        moved += 1;
      }
      if (moved > 0) this.changed('hot');
      return moved;
    });
  }

  compactArchive(): Promise<number> {
    return this.inTurn(() =>
      this.persistence.compactArchive((key) => {
        const slot = this.state.conversations.get(key);
        return slot !== undefined && !isLive(slot);
      }),
    );
  }

  /**
   * Removes a conversation: from the hot set (in memory or cold) and every archived copy. Returns what there was: the
   * conversation (0 or 1), its archived copies and its transcript lines. With `dryRun`, only counts.
   */
  forget(key: string, dryRun: boolean): Promise<{ conversations: number; archivedCopies: number; transcriptLines: number }> {
    return this.inTurn(async () => {
      const slot = this.state.conversations.get(key);
      const record = slot === undefined ? undefined : await this.slow(key);
      // Hot, cold or archived: one conversation (an archived marker names the contact too).
      const conversations = this.state.conversations.get(key) === undefined ? 0 : 1;
      if (!dryRun && this.state.conversations.delete(key)) this.changed('hot');
      const archivedCopies = await this.persistence.removeArchive([key], { dryRun });
      return { conversations, archivedCopies, transcriptLines: record?.transcript.length ?? 0 };
    });
  }

  /**
   * Deletes conversations archived before `beforeMs`: their "archived" markers go first (with the next commit), then
   * every archived copy; a crash between the two leaves copies no marker points to, which `compactArchive` drops.
   */
  expireArchive(beforeMs: number, flush: () => Promise<void>): Promise<{ conversations: number; copies: number }> {
    return this.inTurn(async () => {
      const keys: string[] = [];
      for (const [key, slot] of this.state.conversations.entries()) {
        if (!isLive(slot) && slot.archivedAt < beforeMs) keys.push(key);
      }
      if (keys.length === 0) return { conversations: 0, copies: 0 };
      for (const key of keys) this.state.conversations.delete(key);
      this.changed('hot');
      await flush();
      return { conversations: keys.length, copies: await this.persistence.removeArchive(keys, { dryRun: false }) };
    });
  }

  /** The slots the filter picks, chosen by what the slots hold before any record is read. */
  private select(filter: ConversationFilter): { owner: Owner | undefined; since: number | undefined; slots: Array<[string, LiveSlot]> } {
    const owner = filter.owner === undefined ? undefined : parseInput(ownerSchema, filter.owner, 'Owner filter');
    const since = filter.updatedSince;
    if (since !== undefined && !Number.isFinite(since)) {
      throw new StoreError('invalid', 'updatedSince must be a number of epoch milliseconds; nothing was read.');
    }
    const newest = filter.newest;
    if (newest !== undefined && !(Number.isInteger(newest) && newest >= 0)) {
      throw new StoreError('invalid', 'newest must be a whole number of conversations; nothing was read.');
    }
    const slots = listConversationsIn(this.state, owner, since);
    // The few wanted, by the dates the slots hold: never all of them read to keep some.
    if (newest === undefined || slots.length <= newest) return { owner, since, slots };
    return { owner, since, slots: newestSlots(slots, newest) };
  }

  /** The record as it is now, if it is in the hot set (in memory or cold); undefined once archived or gone. */
  private async readLive(key: string): Promise<ConversationRecord | undefined> {
    const slot = this.state.conversations.get(key);
    if (isHot(slot)) return recordOf(slot);
    if (!isCold(slot)) return undefined;
    const record = await this.slow(key);
    return record && isLive(this.state.conversations.get(key)) ? record : undefined;
  }

  /**
   * Stores a validated record as its JSON text, made once: the text is the store's private copy, so no JSON round
   * trip is needed (the record returned is zod's copy; its `dialog` is the caller's own value).
   */
  private put(parsed: ConversationRecord): ConversationRecord {
    const expected = conversationKey(parsed.channel, parsed.serviceId);
    if (parsed.key !== expected) {
      throw new StoreError(
        'invalid',
        `Conversation key ${parsed.key} does not match channel:serviceId (${expected}); nothing was changed.`,
      );
    }
    const record = boundTranscript(parsed, this.options.transcriptMaxLines, this.options.transcriptMaxLineChars);
    this.state.conversations.set(record.key, entryOf(record, jsonTextOf(record, 'Conversation')));
    this.changed('hot');
    return record;
  }

  /**
   * A conversation not in memory: cold (its row read from the database) or archived. Whatever changed while
   * the disk was read wins: the read is done again from the slot as it is now.
   */
  private async slow(key: string): Promise<ConversationRecord | undefined> {
    for (let attempt = 0; attempt < MAX_COLD_READS; attempt += 1) {
      const slot = this.state.conversations.get(key);
      if (slot === undefined) return undefined;
      if (isHot(slot)) return recordOf(slot);
      if (isCold(slot)) {
        const line = await this.persistence.readCold(key, slot);
        if (line !== undefined && this.state.conversations.get(key) === slot) return JSON.parse(line) as ConversationRecord;
        continue;
      }
      const copy = await this.persistence.readArchive(key);
      const after = this.state.conversations.get(key);
      if (after === slot) return copy;
    }
    throw new StoreError('io', `Conversation ${key} kept changing while it was read from disk; try again.`);
  }

  private inTurn<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.archiveTurn.then(fn);
    this.archiveTurn = run.catch(() => undefined);
    return run;
  }
}
