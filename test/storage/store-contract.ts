import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConversationRecord, EscalationInput, InboundMention, Store, StoreOptions } from '../../src/storage/index.js';
import { isStoreError } from '../../src/storage/index.js';
import { describeDecisionContract } from './decision-contract.js';
import { describeForgetContract } from './forget-contract.js';

export interface StoreUnderTest {
  store: Store;
  cleanup(): Promise<void>;
  /** Stores on disk: closes the store and opens it again on the same data (cleanup then closes the new one). */
  reopen?(): Promise<Store>;
}

export type StoreFactory = (options: StoreOptions) => Promise<StoreUnderTest>;

export const T0 = 1_700_000_000_000;
const DAY = 24 * 60 * 60 * 1000;

export function mention(id: string, overrides: Partial<InboundMention> = {}): InboundMention {
  return { id, topicId: '2001', key: 'whatsapp:32470000001', addedAt: 1_700_000_000, payload: { text: `m${id}` }, ...overrides };
}

export function conversation(serviceId: string, overrides: Partial<ConversationRecord> = {}): ConversationRecord {
  return {
    key: `whatsapp:${serviceId}`,
    channel: 'whatsapp',
    serviceId,
    owner: 'bot',
    transcript: [{ at: T0, from: 'customer', text: 'hello', mentionId: '1' }],
    updatedAt: T0,
    ...overrides,
  };
}

function escalation(contact: string, overrides: Partial<EscalationInput> = {}): EscalationInput {
  return {
    contactKey: `whatsapp:${contact}`,
    channel: 'whatsapp',
    serviceId: contact,
    reason: 'asked for a human',
    priority: 'high',
    mentionId: '9001',
    topicId: '2001',
    summary: 'wants an agent',
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** One suite, every Store implementation: the memory store must behave exactly like the file store. */
export function describeStoreContract(name: string, factory: StoreFactory): void {
  describe(`${name} honours the Store contract`, () => {
    const clock = { now: T0 };
    let subject: StoreUnderTest;
    let store: Store;

    beforeEach(async () => {
      clock.now = T0;
      subject = await factory({ clock: () => clock.now, transcriptMaxLines: 3, writeIntervalMs: 5 });
      store = subject.store;
    });
    afterEach(async () => {
      await subject.cleanup();
    });

    describeDecisionContract(() => store);
    describeForgetContract(
      () => ({
        store,
        ...(subject.reopen && {
          reopen: async () => {
            store = await subject.reopen!();
            return store;
          },
        }),
      }),
      clock,
    );

    it('hands out copies of mentions, effects, cursors, meta and escalations, and keeps none of what it was given', async () => {
      const payload = { text: 'hi', buttons: [{ id: 'b1' }] };
      await store.recordInbound(mention('1', { payload }));
      const effect = { key: '1:reply', kind: 'reply', contactKey: 'whatsapp:1', payload: { text: 'hi', buttons: [{ id: 'b1' }] } };
      await store.enqueueEffect(effect);
      const cursor = { ids: ['1'] };
      await store.setCursor('2001', cursor);
      const values = { nested: { list: [1] } };
      await store.setMeta({ values });
      const opened = await store.openEscalation(escalation('1', { notice: { channel: 'C1', ts: '1.1' } }));
      payload.buttons[0]!.id = 'given';
      effect.payload.buttons[0]!.id = 'given';
      cursor.ids.push('given');
      values.nested.list.push(2);
      const change = (value: unknown): void => {
        const walk = (v: unknown): void => {
          if (Array.isArray(v)) {
            v.push('changed');
            for (const item of v.slice(0, -1)) walk(item);
          } else if (typeof v === 'object' && v !== null) {
            for (const item of Object.values(v)) walk(item);
            (v as Record<string, unknown>).changed = true;
          }
        };
        walk(value);
      };
      change(await store.pendingInbound());
      change(await store.pendingEffects());
      change(await store.getEffect('1:reply'));
      change(await store.getCursor('2001'));
      change(await store.getMeta());
      change(await store.getEscalation(opened.id));
      change(await store.listEscalations());
      change(await store.completeEffect('1:reply', { ids: ['p1'] }));
      expect((await store.pendingInbound()).map((m) => m.payload)).toStrictEqual([{ text: 'hi', buttons: [{ id: 'b1' }] }]);
      expect(await store.getEffect('1:reply')).toStrictEqual({
        key: '1:reply',
        kind: 'reply',
        contactKey: 'whatsapp:1',
        payload: null,
        seq: 1,
        status: 'done',
        attempts: 1,
        createdAt: T0,
        updatedAt: T0,
        result: { ids: ['p1'] },
      });
      expect(await store.getCursor('2001')).toStrictEqual({ ids: ['1'] });
      expect((await store.getMeta()).values).toStrictEqual({ nested: { list: [1] } });
      expect(await store.getEscalation(opened.id)).toStrictEqual(opened);
      expect(await store.listEscalations()).toStrictEqual([opened]);
    });

    describe('inbound mentions', () => {
      it('records a mention once and reports a repeat as seen', async () => {
        expect(await store.recordInbound(mention('9001'))).toBe(true);
        expect(await store.recordInbound(mention('9001', { payload: 'other' }))).toBe(false);
        expect(await store.hasSeen('2001', '9001')).toBe(true);
        expect(await store.pendingInbound()).toEqual([mention('9001')]);
      });

      it('lists pending mentions by date added then id, numerically, and per contact', async () => {
        await store.recordInbound(mention('10000', { addedAt: 5 }));
        await store.recordInbound(mention('9001', { addedAt: 5 }));
        await store.recordInbound(mention('7', { addedAt: 4, key: 'web:abc' }));
        expect((await store.pendingInbound()).map((m) => m.id)).toEqual(['7', '9001', '10000']);
        expect((await store.pendingInbound('web:abc')).map((m) => m.id)).toEqual(['7']);
      });

      it('forgets a processed mention from the inbox but still knows its id', async () => {
        await store.recordInbound(mention('1'));
        await store.markInboundProcessed('2001', '1');
        await store.markInboundProcessed('2001', '1');
        expect(await store.pendingInbound()).toEqual([]);
        expect(await store.recordInbound(mention('1'))).toBe(false);
      });

      it('refuses to mark an id that was never recorded', async () => {
        expect(isStoreError(await rejection(store.markInboundProcessed('2001', 'nope')), 'invalid')).toBe(true);
      });

      it('refuses a malformed mention with the field named and records nothing', async () => {
        const error = await rejection(store.recordInbound({ ...mention('1'), addedAt: 'yesterday' } as unknown as InboundMention));
        expect(isStoreError(error, 'invalid')).toBe(true);
        expect(String((error as Error).message)).toContain('addedAt');
        expect(await store.hasSeen('2001', '1')).toBe(false);
      });

      it('tells mentions apart by topic and id: the same id in a second topic is a new mention (#11.10)', async () => {
        expect(await store.recordInbound(mention('9001'))).toBe(true);
        expect(await store.recordInbound(mention('9001', { topicId: '2002' }))).toBe(true);
        expect(await store.hasSeen('2002', '9001')).toBe(true);
        expect(await store.hasSeen('2003', '9001')).toBe(false);
        await store.markInboundProcessed('2001', '9001');
        expect((await store.pendingInbound()).map((m) => `${m.topicId}/${m.id}`)).toEqual(['2002/9001']);
        expect(await store.recordInbound(mention('9001', { topicId: '2002' }))).toBe(false);
        await store.flush();
      });

      it('keeps ids like __proto__ and constructor apart from object internals', async () => {
        expect(await store.hasSeen('2001', 'constructor')).toBe(false);
        expect(await store.recordInbound(mention('__proto__'))).toBe(true);
        expect(await store.recordInbound(mention('__proto__'))).toBe(false);
      });
    });

    describe('the effect outbox', () => {
      const reply = { key: '9001:reply', kind: 'reply', contactKey: 'whatsapp:1', payload: { text: 'hi' } };

      it('enqueues an effect once by key and returns the stored one on a repeat', async () => {
        const first = await store.enqueueEffect(reply);
        const again = await store.enqueueEffect({ ...reply, payload: { text: 'different' } });
        expect(first).toMatchObject({ ...reply, status: 'pending', attempts: 0, createdAt: T0 });
        expect(again).toEqual(first);
        await store.completeEffect(reply.key, { messageId: 'p1' });
        expect((await store.enqueueEffect(reply)).status).toBe('done');
      });

      it('lists pending effects in creation order, per contact', async () => {
        await store.enqueueEffect({ ...reply, key: 'b:1' });
        await store.enqueueEffect({ ...reply, key: 'a:1', contactKey: 'web:2' });
        await store.enqueueEffect({ ...reply, key: 'c:1' });
        expect((await store.pendingEffects()).map((e) => e.key)).toEqual(['b:1', 'a:1', 'c:1']);
        expect((await store.pendingEffects('whatsapp:1')).map((e) => e.key)).toEqual(['b:1', 'c:1']);
      });

      it("lists one contact's pending effects apart from the others' as they complete, fail and retry", async () => {
        for (const [key, contactKey] of [
          ['a:1', 'whatsapp:1'],
          ['b:1', 'web:2'],
          ['a:2', 'whatsapp:1'],
          ['b:2', 'web:2'],
          ['a:3', 'whatsapp:1'],
        ]) {
          await store.enqueueEffect({ ...reply, key: key!, contactKey: contactKey! });
        }
        await store.completeEffect('a:1');
        await store.failEffect('a:2', 'HTTP 503', T0 + 5000);
        await store.failEffect('b:1', 'invalid_parameter');
        expect((await store.pendingEffects('whatsapp:1')).map((e) => e.key)).toEqual(['a:2', 'a:3']);
        expect((await store.pendingEffects('web:2')).map((e) => e.key)).toEqual(['b:2']);
        expect((await store.pendingEffects('nobody')).map((e) => e.key)).toEqual([]);
        expect(store.stats().pendingEffects).toBe(3);
      });

      it('completes an effect with its result and drops it from pending', async () => {
        await store.enqueueEffect(reply);
        clock.now = T0 + 1000;
        const done = await store.completeEffect(reply.key, { id: 'pm1' });
        expect(done).toMatchObject({ status: 'done', result: { id: 'pm1' }, updatedAt: T0 + 1000 });
        expect(await store.pendingEffects()).toEqual([]);
        expect(await store.getEffect(reply.key)).toEqual(done);
      });

      it('keeps a failed effect pending until its retry time, or gives it up without one', async () => {
        await store.enqueueEffect(reply);
        await store.enqueueEffect({ ...reply, key: 'x:1' });
        const retrying = await store.failEffect(reply.key, 'HTTP 503', T0 + 5000);
        expect(retrying).toMatchObject({ status: 'pending', attempts: 1, lastError: 'HTTP 503', retryAt: T0 + 5000 });
        const given = await store.failEffect('x:1', 'invalid_parameter');
        expect(given.status).toBe('failed');
        expect((await store.pendingEffects()).map((e) => e.key)).toEqual([reply.key]);
      });

      it('refuses to complete or fail an unknown effect', async () => {
        expect(isStoreError(await rejection(store.completeEffect('none')), 'invalid')).toBe(true);
        expect(isStoreError(await rejection(store.failEffect('none', 'x')), 'invalid')).toBe(true);
      });
    });

    describe('cursors and meta', () => {
      it('keeps a cursor per topic as given', async () => {
        expect(await store.getCursor('2001')).toBeUndefined();
        await store.setCursor('2001', { since: 1_700_000_000, ids: ['1', '2'] });
        await store.setCursor('2002', 'page-abc');
        expect(await store.getCursor('2001')).toEqual({ since: 1_700_000_000, ids: ['1', '2'] });
        expect(await store.getCursor('2002')).toBe('page-abc');
      });

      it('records the baseline and merges meta values', async () => {
        expect(await store.getMeta()).toEqual({ createdAt: T0, values: {} });
        await store.setMeta({ baselineAt: T0 + 1, values: { botPaused: true } });
        await store.setMeta({ values: { other: 1 } });
        expect(await store.getMeta()).toEqual({ createdAt: T0, baselineAt: T0 + 1, values: { botPaused: true, other: 1 } });
      });
    });

    describe('conversations', () => {
      it('saves and reads a conversation and hands out copies', async () => {
        const saved = await store.saveConversation(conversation('1', { dialog: { step: 'menu' } }));
        saved.owner = 'agents';
        const read = await store.getConversation('whatsapp:1');
        expect(read).toEqual(conversation('1', { dialog: { step: 'menu' } }));
        read!.transcript.push({ at: 1, from: 'bot', text: 'x' });
        expect((await store.getConversation('whatsapp:1'))!.transcript).toHaveLength(1);
        expect(await store.getConversation('whatsapp:2')).toBeUndefined();
      });

      it('keeps only the last lines of the transcript window', async () => {
        const lines = [1, 2, 3, 4, 5].map((n) => ({ at: n, from: 'customer' as const, text: `line ${n}` }));
        const saved = await store.saveConversation(conversation('1', { transcript: lines }));
        expect(saved.transcript.map((l) => l.text)).toEqual(['line 3', 'line 4', 'line 5']);
      });

      it('refuses a dialog that is not JSON data, keeps what a JSON reading would, and keeps no tie to the caller', async () => {
        const cyclic: Record<string, unknown> = { step: 'menu' };
        cyclic.self = cyclic;
        expect(isStoreError(await rejection(store.saveConversation(conversation('1', { dialog: cyclic }))), 'invalid')).toBe(true);
        expect(isStoreError(await rejection(store.saveConversation(conversation('1', { dialog: { n: 1n } }))), 'invalid')).toBe(true);
        expect(await store.getConversation('whatsapp:1')).toBeUndefined();
        const dialog = { step: 'menu', at: new Date(T0), gone: undefined, list: [1] };
        await store.saveConversation(conversation('1', { dialog }));
        dialog.list.push(2);
        dialog.step = 'changed';
        expect((await store.getConversation('whatsapp:1'))?.dialog).toEqual({ step: 'menu', at: new Date(T0).toISOString(), list: [1] });
        const updated = await store.updateConversation('whatsapp:1', (c) => c && { ...c, dialog: { seen: new Set([1]) } });
        expect(updated?.owner).toBe('bot');
        expect((await store.getConversation('whatsapp:1'))?.dialog).toEqual({ seen: {} });
      });

      it('hands out a copy on every read, deep down, however often the record is read or changed', async () => {
        const dialog = { offer: { buttons: [{ id: 'b1' }] }, ids: ['1'] };
        await store.saveConversation(conversation('1', { dialog }));
        for (let round = 0; round < 3; round += 1) {
          const read = (await store.getConversation('whatsapp:1'))!;
          (read.dialog as typeof dialog).offer.buttons[0]!.id = 'changed';
          (read.dialog as typeof dialog).ids.push('x');
          read.transcript[0]!.text = 'changed';
          // An update that changes what it is given in place and then keeps the record changes nothing.
          await store.updateConversation('whatsapp:1', (current) => {
            (current!.dialog as typeof dialog).ids.push('y');
            current!.transcript[0]!.text = 'changed too';
            return undefined;
          });
          const saved = await store.updateConversation('whatsapp:1', (current) => current && { ...current, updatedAt: T0 + round });
          (saved!.dialog as typeof dialog).ids.push('z');
          saved!.transcript[0]!.text = 'changed again';
          const decided = await store.recordDecision({
            contactKey: 'whatsapp:1',
            decidedKey: `decision-${round}`,
            update: (current) => current && { ...current, updatedAt: T0 + round },
            effects: [],
          });
          (decided.conversation!.dialog as typeof dialog).ids.push('w');
          expect(await store.getConversation('whatsapp:1')).toStrictEqual({ ...conversation('1', { dialog }), updatedAt: T0 + round });
        }
      });

      it('reads back exactly what reading its JSON text gives, right after a save and after an update', async () => {
        const record = {
          ...conversation('1'),
          topicId: undefined,
          lastInboundAt: -0,
          dialog: {
            at: new Date(T0),
            nan: Number.NaN,
            gone: undefined,
            list: [undefined, 1],
            ...JSON.parse('{"__proto__":{"kept":true}}'),
          },
        };
        const expected = JSON.parse(JSON.stringify(record));
        await store.saveConversation(record);
        const read = await store.getConversation('whatsapp:1');
        expect(read).toStrictEqual(expected);
        expect(Object.is(read!.lastInboundAt, 0)).toBe(true);
        expect(Object.keys(read!.dialog as object)).toContain('__proto__');
        let seen: unknown;
        await store.updateConversation('whatsapp:1', (current) => {
          seen = current;
          return undefined;
        });
        expect(seen).toStrictEqual(expected);
      });

      it('refuses a record whose key is not channel:serviceId', async () => {
        const error = await rejection(store.saveConversation(conversation('1', { key: 'whatsapp:2' })));
        expect(isStoreError(error, 'invalid')).toBe(true);
        expect(await store.getConversation('whatsapp:2')).toBeUndefined();
      });

      it('updates a conversation in one step, creating it when missing', async () => {
        const created = await store.updateConversation('whatsapp:1', (current) => current ?? conversation('1'));
        expect(created?.owner).toBe('bot');
        await store.updateConversation('whatsapp:1', (current) => current && { ...current, owner: 'agents', ownerChangedAt: T0 + 5 });
        expect(await store.updateConversation('whatsapp:1', () => undefined)).toMatchObject({ owner: 'agents', ownerChangedAt: T0 + 5 });
        expect(await store.updateConversation('whatsapp:9', () => undefined)).toBeUndefined();
      });

      it('lists conversations by owner and counts them', async () => {
        await store.saveConversation(conversation('1'));
        await store.saveConversation(conversation('2', { owner: 'agents' }));
        await store.saveConversation(conversation('3', { owner: 'agents' }));
        await store.saveConversation(conversation('4', { owner: 'paused' }));
        expect((await store.listConversations({ owner: 'agents' })).map((c) => c.serviceId).sort()).toEqual(['2', '3']);
        expect(await store.listConversations()).toHaveLength(4);
        expect(await store.countByOwner()).toEqual({ bot: 1, agents: 2, paused: 1, unknown: 0, archived: 0 });
      });

      it('lists only the conversations updated since a moment, by owner too', async () => {
        await store.saveConversation(conversation('a', { updatedAt: T0 - 2 * 3_600_000 }));
        await store.saveConversation(conversation('b', { updatedAt: T0 - 60_000 }));
        await store.saveConversation(conversation('c', { owner: 'agents', updatedAt: T0 }));
        const since = T0 - 30 * 60_000;
        expect((await store.listConversations({ updatedSince: since })).map((c) => c.serviceId).sort()).toEqual(['b', 'c']);
        expect((await store.listConversations({ owner: 'bot', updatedSince: since })).map((c) => c.serviceId)).toEqual(['b']);
        await expect(store.listConversations({ updatedSince: Number.NaN })).rejects.toThrow(/updatedSince/);
      });

      it('lists only the newest few when asked, chosen by date', async () => {
        for (let i = 0; i < 6; i++) await store.saveConversation(conversation(String(i), { updatedAt: T0 - (i % 3) * 60_000 - i }));
        await store.saveConversation(conversation('people', { owner: 'agents', updatedAt: T0 + 1 }));
        const newest = await store.listConversations({ owner: 'bot', newest: 2 });
        expect(newest.map((c) => c.serviceId).sort()).toEqual(['0', '3']);
        const visited: string[] = [];
        expect(await store.eachConversation({ owner: 'bot', newest: 2 }, (c) => void visited.push(c.serviceId))).toBe(2);
        expect(visited.sort()).toEqual(['0', '3']);
        expect(await store.listConversations({ owner: 'bot', updatedSince: T0 - 60_000 - 4, newest: 10 })).toHaveLength(4);
        expect(await store.listConversations({ newest: 0 })).toEqual([]);
        await expect(store.listConversations({ newest: 1.5 })).rejects.toThrow(/newest/);
      });

      it('visits conversations one at a time, each as it is at its turn', async () => {
        const ids = ['1', '2', '3', '4'];
        for (const id of ids) await store.saveConversation(conversation(id, { owner: 'agents', updatedAt: T0 - 40 * DAY }));
        await store.saveConversation(conversation('5'));
        const visited: Array<[string, string | undefined]> = [];
        let renamed = '';
        const count = await store.eachConversation({ owner: 'agents' }, async (record) => {
          visited.push([record.serviceId, record.contactName]);
          if (visited.length > 1) return;
          // While the pass runs: one of the others goes to the bot, one is renamed, one is archived.
          const [toBot, toRename, toArchive] = ids.filter((id) => id !== record.serviceId);
          renamed = toRename!;
          await store.updateConversation(`whatsapp:${toBot}`, (c) => c && { ...c, owner: 'bot', updatedAt: T0 });
          await store.updateConversation(`whatsapp:${toRename}`, (c) => c && { ...c, contactName: 'renamed', updatedAt: T0 });
          await store.updateConversation(record.key, (c) => c && { ...c, updatedAt: T0 });
          expect(await store.archiveInactive(T0 - 39 * DAY)).toBe(1);
          expect(await store.getConversation(`whatsapp:${toArchive}`)).toMatchObject({ owner: 'agents' });
        });
        expect(count).toBe(2);
        expect(visited[1]).toEqual([renamed, 'renamed']);
        expect(await store.eachConversation({ owner: 'bot', updatedSince: T0 }, () => undefined)).toBe(2);
        await expect(store.eachConversation({ updatedSince: Number.NaN }, () => undefined)).rejects.toThrow(/updatedSince/);
      });

      it('archives inactive conversations out of the hot set and still finds them', async () => {
        await store.saveConversation(conversation('old', { updatedAt: T0 - 40 * DAY }));
        await store.saveConversation(conversation('busy', { updatedAt: T0 - 40 * DAY }));
        await store.recordInbound(mention('5', { key: 'whatsapp:busy' }));
        await store.saveConversation(conversation('new'));
        expect(await store.archiveInactive()).toBe(1);
        expect((await store.listConversations()).map((c) => c.serviceId).sort()).toEqual(['busy', 'new']);
        expect(await store.countByOwner()).toMatchObject({ bot: 2, archived: 1 });
        expect(await store.getConversation('whatsapp:old')).toEqual(conversation('old', { updatedAt: T0 - 40 * DAY }));
        const back = await store.updateConversation('whatsapp:old', (c) => c && { ...c, updatedAt: T0 });
        expect(back?.updatedAt).toBe(T0);
        expect(await store.countByOwner()).toMatchObject({ bot: 3, archived: 0 });
      });
    });

    describe('escalations', () => {
      it('opens escalations with their own ids and updates them', async () => {
        const first = await store.openEscalation(escalation('1'));
        const second = await store.openEscalation(escalation('2', { status: 'queued' }));
        expect(first).toMatchObject({ id: 'esc-1', status: 'open', createdAt: T0, updatedAt: T0 });
        expect(second).toMatchObject({ id: 'esc-2', status: 'queued' });
        clock.now = T0 + 10;
        const taken = await store.updateEscalation('esc-1', { status: 'taken', notice: { channel: 'C1', ts: '1.2' } });
        expect(taken).toMatchObject({
          status: 'taken',
          notice: { channel: 'C1', ts: '1.2' },
          updatedAt: T0 + 10,
          reason: 'asked for a human',
        });
        expect(await store.getEscalation('esc-1')).toEqual(taken);
      });

      it('lists escalations by status and contact', async () => {
        await store.openEscalation(escalation('1'));
        await store.openEscalation(escalation('2', { status: 'queued' }));
        await store.openEscalation(escalation('1', { status: 'resolved' }));
        expect((await store.listEscalations({ status: ['open', 'queued'] })).map((e) => e.id)).toEqual(['esc-1', 'esc-2']);
        expect((await store.listEscalations({ contactKey: 'whatsapp:1' })).map((e) => e.id)).toEqual(['esc-1', 'esc-3']);
      });

      it('refuses to update an unknown escalation or a bad status', async () => {
        await store.openEscalation(escalation('1'));
        expect(isStoreError(await rejection(store.updateEscalation('esc-9', { status: 'taken' })), 'invalid')).toBe(true);
        const bad = await rejection(store.updateEscalation('esc-1', { status: 'gone' as never }));
        expect(isStoreError(bad, 'invalid')).toBe(true);
        expect((await store.getEscalation('esc-1'))?.status).toBe('open');
      });
    });

    describe('the audit log', () => {
      it('keeps entries in order and lists the latest since a time', async () => {
        for (let i = 0; i < 5; i += 1) {
          await store.audit({ at: T0 + i, actor: 'U1', action: 'handover', subject: `whatsapp:${i}`, reason: 'manager' });
        }
        expect((await store.listAudit()).map((e) => e.subject)).toEqual([0, 1, 2, 3, 4].map((i) => `whatsapp:${i}`));
        expect((await store.listAudit({ since: T0 + 2, limit: 2 })).map((e) => e.at)).toEqual([T0 + 3, T0 + 4]);
      });

      it('refuses an entry without an actor', async () => {
        expect(isStoreError(await rejection(store.audit({ at: T0, actor: '', action: 'x', subject: 'y' })), 'invalid')).toBe(true);
        expect(await store.listAudit()).toEqual([]);
      });
    });

    describe('pruning', () => {
      it('drops old seen ids, finished effects, closed escalations and audit entries, keeping live ones', async () => {
        await store.recordInbound(mention('old-done'));
        await store.markInboundProcessed('2001', 'old-done');
        await store.recordInbound(mention('old-pending'));
        await store.enqueueEffect({ key: 'old-done:reply', kind: 'reply', contactKey: 'whatsapp:1', payload: null });
        await store.completeEffect('old-done:reply');
        await store.enqueueEffect({ key: 'old-pending:reply', kind: 'reply', contactKey: 'whatsapp:1', payload: null });
        await store.openEscalation(escalation('1', { status: 'resolved' }));
        await store.openEscalation(escalation('2'));
        await store.audit({ at: T0, actor: 'bridge', action: 'owner', subject: 'whatsapp:1' });
        clock.now = T0 + 100 * DAY;
        await store.recordInbound(mention('fresh'));
        await store.audit({ at: clock.now, actor: 'bridge', action: 'owner', subject: 'whatsapp:2' });

        expect(await store.prune()).toEqual({ seenIds: 1, effects: 1, escalations: 1, auditEntries: 1, archiveCopies: 0 });
        expect(await store.hasSeen('2001', 'old-done')).toBe(false);
        expect(await store.hasSeen('2001', 'old-pending')).toBe(true);
        expect(await store.getEffect('old-pending:reply')).toBeDefined();
        expect((await store.listEscalations()).map((e) => e.id)).toEqual(['esc-2']);
        expect((await store.listAudit()).map((e) => e.subject)).toEqual(['whatsapp:2']);
      });
    });

    it('compacts the archive to the latest copy of each conversation still archived', async () => {
      const old = T0 - 40 * DAY;
      await store.saveConversation(conversation('1', { updatedAt: old }));
      await store.saveConversation(conversation('2', { updatedAt: old }));
      expect(await store.archiveInactive()).toBe(2);
      await store.updateConversation('whatsapp:1', (c) => c && { ...c, contactName: 'Ann', updatedAt: old + 1 });
      await store.updateConversation('whatsapp:2', (c) => c && { ...c, updatedAt: T0 });
      expect(await store.archiveInactive()).toBe(1);
      expect((await store.prune()).archiveCopies).toBe(2);
      expect(await store.getConversation('whatsapp:1')).toEqual(conversation('1', { contactName: 'Ann', updatedAt: old + 1 }));
      expect(await store.getConversation('whatsapp:2')).toEqual(conversation('2', { updatedAt: T0 }));
      expect((await store.prune()).archiveCopies).toBe(0);
    });

    it('refuses every call once closed', async () => {
      await store.close();
      expect(isStoreError(await rejection(store.getConversation('whatsapp:1')), 'closed')).toBe(true);
      expect(isStoreError(await rejection(store.recordInbound(mention('1'))), 'closed')).toBe(true);
    });
  });
}
