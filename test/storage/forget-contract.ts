import { describe, expect, it } from 'vitest';
import type { ConversationRecord, EscalationInput, InboundMention, Store } from '../../src/storage/index.js';
import { isStoreError } from '../../src/storage/index.js';

const T0 = 1_700_000_000_000;
const DAY = 24 * 60 * 60 * 1000;
const ANN = 'whatsapp:32470000001';
const BOB = 'whatsapp:32470000002';

function record(key: string, overrides: Partial<ConversationRecord> = {}): ConversationRecord {
  const serviceId = key.slice('whatsapp:'.length);
  return {
    key,
    channel: 'whatsapp',
    serviceId,
    owner: 'bot',
    contactName: `name of ${serviceId}`,
    dialog: { step: 'asked', answers: { order: `order of ${serviceId}` } },
    transcript: [{ at: T0, from: 'customer', text: `words of ${serviceId}`, mentionId: '1' }],
    updatedAt: T0,
    ...overrides,
  };
}

function inbound(id: string, key: string): InboundMention {
  return { id, topicId: '2001', key, addedAt: 1_700_000_000, payload: { text: `message ${id}` } };
}

function escalationOf(key: string): EscalationInput {
  const serviceId = key.slice('whatsapp:'.length);
  return {
    contactKey: key,
    channel: 'whatsapp',
    serviceId,
    reason: 'asked',
    priority: 'high',
    mentionId: '1',
    topicId: '2001',
    summary: 'help',
  };
}

/** Everything a store keeps about one contact, the way the bridge writes it. */
async function remember(store: Store, key: string, id: string): Promise<void> {
  const slash = key.replace(':', '/');
  // An archived copy, then the conversation back in the hot set: both copies must go.
  await store.saveConversation(record(key, { updatedAt: T0 - 40 * DAY }));
  expect(await store.archiveInactive(T0 - 39 * DAY)).toBe(1);
  await store.saveConversation(record(key));
  await store.recordInbound(inbound(`${id}-waiting`, key));
  await store.enqueueEffect({ key: `${id}:done`, kind: 'reply', contactKey: key, payload: { text: 'sent' } });
  await store.completeEffect(`${id}:done`);
  await store.enqueueEffect({ key: `${id}:pending`, kind: 'reply', contactKey: key, payload: { text: 'not yet' } });
  await store.openEscalation(escalationOf(key));
  await store.audit({ at: T0, actor: 'customer', action: 'survey answer', subject: key, result: '{"kind":"csat","score":4}' });
  await store.audit({ at: T0, actor: 'slack:U1', action: 'handover', subject: slash, result: 'ok' });
  await store.audit({ at: T0, actor: 'bridge', action: 'gave up reply', subject: 'all', reason: `no answer for ${slash}` });
}

/** What a store shows of a contact through its contract: the same before and after a dry run. */
async function view(store: Store, key: string) {
  return {
    conversation: await store.getConversation(key),
    inbox: await store.pendingInbound(key),
    pending: await store.pendingEffects(key),
    escalations: await store.listEscalations({ contactKey: key }),
    audit: await store.listAudit({ limit: 1000 }),
  };
}

async function expectForgotten(store: Store, key: string, id: string): Promise<void> {
  expect(await store.getConversation(key)).toBeUndefined();
  expect(await store.pendingInbound(key)).toEqual([]);
  expect(await store.pendingEffects(key)).toEqual([]);
  expect(await store.getEffect(`${id}:done`)).toBeUndefined();
  expect(await store.listEscalations({ contactKey: key })).toEqual([]);
  const serviceId = key.slice('whatsapp:'.length);
  expect(JSON.stringify(await store.listAudit({ limit: 1000 }))).not.toMatch(new RegExp(`${serviceId}(?!\\d)`));
  expect(JSON.stringify(await store.listConversations())).not.toContain(serviceId);
  // Its mention ids stay seen: a mention read again is never answered.
  expect(await store.hasSeen('2001', `${id}-waiting`)).toBe(true);
}

/**
 * `forgetContact` and `applyRetention` on every store. `reopen` (stores that keep files or rows) closes the store and
 * opens it again on the same data: nothing forgotten or expired may come back from disk.
 */
export function describeForgetContract(subject: () => { store: Store; reopen?: () => Promise<Store> }, clock: { now: number }): void {
  async function reopened(): Promise<Store | undefined> {
    const { reopen } = subject();
    return reopen ? reopen() : undefined;
  }

  describe("a contact's data", () => {
    it('forgets a contact everywhere (hot and archived copies, inbox, effects, escalations, survey answers, audit), others stay', async () => {
      const { store } = subject();
      await remember(store, ANN, 'ann');
      await remember(store, BOB, 'bob');
      // A longer id that begins with Ann's is another contact.
      await store.audit({ at: T0, actor: 'slack:U1', action: 'handover', subject: 'whatsapp/324700000011', result: 'ok' });

      const before = await view(store, ANN);
      const counts = {
        known: true,
        conversations: 1,
        archivedCopies: 1,
        transcriptLines: 1,
        inbox: 1,
        pendingEffects: 1,
        finishedEffects: 1,
        escalations: 1,
        surveyAnswers: 1,
        auditEntries: 2,
      };
      expect(await store.forgetContact(ANN, { dryRun: true })).toEqual(counts);
      expect(await view(store, ANN)).toEqual(before);

      expect(await store.forgetContact(ANN)).toEqual(counts);
      await expectForgotten(store, ANN, 'ann');
      const bob = await view(store, BOB);
      expect(bob.conversation?.contactName).toBe('name of 32470000002');
      expect(bob.inbox).toHaveLength(1);
      expect(bob.pending).toHaveLength(1);
      expect(bob.escalations).toHaveLength(1);
      expect(bob.audit.map((e) => e.subject)).toEqual([BOB, 'whatsapp/32470000002', 'all', 'whatsapp/324700000011']);
      // Nothing is left to find, not even an archived copy on disk.
      expect((await store.forgetContact(ANN)).known).toBe(false);

      const again = await reopened();
      if (!again) return;
      await expectForgotten(again, ANN, 'ann');
      expect((await again.forgetContact(ANN, { dryRun: true })).known).toBe(false);
      expect((await again.getConversation(BOB))?.dialog).toEqual(record(BOB).dialog);
      expect((await again.forgetContact(BOB, { dryRun: true })).archivedCopies).toBe(1);
    });

    it('forgets a contact whose records were read back from disk (after a snapshot and a reopen)', async () => {
      const { store } = subject();
      await remember(store, ANN, 'ann');
      await remember(store, BOB, 'bob');
      const loaded = await reopened();
      if (!loaded) return;
      expect(await loaded.forgetContact(ANN)).toMatchObject({ known: true, conversations: 1, archivedCopies: 1, surveyAnswers: 1 });
      await expectForgotten(loaded, ANN, 'ann');
      const again = (await reopened()) ?? loaded;
      await expectForgotten(again, ANN, 'ann');
      expect((await again.forgetContact(ANN, { dryRun: true })).known).toBe(false);
      expect(await again.getConversation(BOB)).toBeDefined();
    });

    it('forgets a contact whose conversation is only in the archive', async () => {
      const { store } = subject();
      await store.saveConversation(record(ANN, { updatedAt: T0 - 40 * DAY }));
      expect(await store.archiveInactive(T0 - 39 * DAY)).toBe(1);
      expect(await store.forgetContact(ANN)).toMatchObject({ known: true, conversations: 1, archivedCopies: 1, transcriptLines: 1 });
      expect(await store.getConversation(ANN)).toBeUndefined();
      expect(await store.countByOwner()).toMatchObject({ archived: 0 });
      const again = (await reopened()) ?? store;
      expect(await again.getConversation(ANN)).toBeUndefined();
      expect((await again.forgetContact(ANN, { dryRun: true })).known).toBe(false);
    });

    it('says a contact it does not know is unknown and changes nothing', async () => {
      const { store } = subject();
      await remember(store, BOB, 'bob');
      const before = await view(store, BOB);
      const result = await store.forgetContact(ANN);
      expect(result.known).toBe(false);
      expect(Object.values(result).filter((v) => typeof v === 'number' && v !== 0)).toEqual([]);
      expect(await view(store, BOB)).toEqual(before);
      expect(isStoreError(await store.forgetContact('').catch((e: unknown) => e), 'invalid')).toBe(true);
    });

    it('deletes by date: old transcript lines, conversations archived long ago and old survey answers go, recent ones stay', async () => {
      const { store } = subject();
      const oldLine = { at: T0 - 100 * DAY, from: 'customer' as const, text: 'old words' };
      const newLine = { at: T0 - DAY, from: 'customer' as const, text: 'new words' };
      await store.saveConversation(record(ANN, { transcript: [oldLine, newLine], updatedAt: T0 - DAY }));
      await store.saveConversation(record(BOB, { transcript: [newLine], updatedAt: T0 - DAY }));
      // Archived 100 and 10 days ago.
      clock.now = T0 - 100 * DAY;
      await store.saveConversation(record('whatsapp:1', { transcript: [], updatedAt: T0 - 140 * DAY }));
      expect(await store.archiveInactive()).toBe(1);
      clock.now = T0 - 10 * DAY;
      await store.saveConversation(record('whatsapp:2', { transcript: [], updatedAt: T0 - 50 * DAY }));
      expect(await store.archiveInactive()).toBe(1);
      clock.now = T0;
      await store.audit({ at: T0 - 100 * DAY, actor: 'customer', action: 'survey answer', subject: ANN, result: '{}' });
      await store.audit({ at: T0 - DAY, actor: 'customer', action: 'survey answer', subject: BOB, result: '{}' });
      await store.audit({ at: T0 - 100 * DAY, actor: 'slack:U1', action: 'status', subject: 'status' });

      // Defaults: transcripts 90 days, archive 60 days after archiving, survey answers 90 days.
      expect(await store.applyRetention()).toEqual({
        transcriptLines: 1,
        trimmedConversations: 1,
        archivedConversations: 1,
        archiveCopies: 1,
        surveyAnswers: 1,
      });
      const expectRetained = async (s: Store) => {
        expect(await s.getConversation(ANN)).toMatchObject({ transcript: [newLine], updatedAt: T0 - DAY });
        expect((await s.getConversation(BOB))?.transcript).toEqual([newLine]);
        expect(await s.getConversation('whatsapp:1')).toBeUndefined();
        expect(await s.getConversation('whatsapp:2')).toMatchObject({ updatedAt: T0 - 50 * DAY });
        expect((await s.listAudit()).map((e) => e.subject)).toEqual([BOB, 'status']);
        expect(await s.countByOwner()).toMatchObject({ archived: 1 });
      };
      await expectRetained(store);
      const later = (await reopened()) ?? store;
      await expectRetained(later);
      expect(await later.applyRetention()).toEqual({
        transcriptLines: 0,
        trimmedConversations: 0,
        archivedConversations: 0,
        archiveCopies: 0,
        surveyAnswers: 0,
      });
    });

    it('refuses a cutoff that is not a date, for pruning and for retention alike, and deletes nothing', async () => {
      const { store } = subject();
      await store.recordInbound(inbound('old', ANN));
      await store.markInboundProcessed('2001', 'old');
      await store.audit({ at: T0, actor: 'slack:U1', action: 'status', subject: 'status' });
      clock.now = T0 + 400 * DAY;
      for (const call of [
        () => store.prune({ seenBeforeMs: Number.NaN }),
        () => store.prune({ auditBeforeMs: Number.POSITIVE_INFINITY }),
        () => store.applyRetention({ transcriptBeforeMs: Number.NaN }),
      ]) {
        await expect(call()).rejects.toSatisfy((error) => isStoreError(error, 'invalid'));
      }
      expect(await store.hasSeen('2001', 'old')).toBe(true);
      expect(await store.listAudit()).toHaveLength(1);
    });

    it('prunes survey answers by their own retention, not the audit log’s', async () => {
      const { store } = subject();
      await store.audit({ at: T0, actor: 'customer', action: 'survey answer', subject: ANN, result: '{}' });
      await store.audit({ at: T0, actor: 'slack:U1', action: 'status', subject: 'status' });
      clock.now = T0 + 91 * DAY;
      expect((await store.prune({ auditBeforeMs: T0 + 1 })).auditEntries).toBe(2);
      await store.audit({ at: clock.now, actor: 'customer', action: 'survey answer', subject: BOB, result: '{}' });
      expect((await store.prune({ auditBeforeMs: clock.now + 1 })).auditEntries).toBe(0);
      expect((await store.listAudit()).map((e) => e.subject)).toEqual([BOB]);
    });
  });
}
