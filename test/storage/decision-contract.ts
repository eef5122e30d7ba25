import { describe, expect, it } from 'vitest';
import type { ConversationRecord, DecisionInput, Store } from '../../src/storage/index.js';
import { isStoreError } from '../../src/storage/index.js';
import { conversation, T0 } from './store-contract.js';

const KEY = 'whatsapp:1';
const DAY = 24 * 60 * 60 * 1000;

function decided(overrides: Partial<DecisionInput> = {}): DecisionInput {
  return {
    contactKey: KEY,
    decidedKey: '2001/9001:decision',
    update: (c) => c && { ...c, dialog: { step: 'asked' }, transcript: [...c.transcript, { at: T0 + 1, from: 'bot', text: 'Hi!' }] },
    effects: [
      { key: '2001/9001:1:reply', kind: 'reply', payload: { text: 'Hi!' } },
      { key: '2001/9001:2:escalate', kind: 'escalate', payload: { reason: 'asked' } },
    ],
    ...overrides,
  };
}

/** `recordDecision` on every store: the conversation, the effects and the decided mark, one unit, once. */
export function describeDecisionContract(current: () => Store): void {
  describe('recording a decision', () => {
    it('changes the conversation, enqueues the effects in order and marks the decision taken, all in one call', async () => {
      const store = current();
      await store.saveConversation(conversation('1'));
      const result = await store.recordDecision(decided());
      expect(result.recorded).toBe(true);
      expect(result.conversation?.dialog).toEqual({ step: 'asked' });
      expect(result.effects.map((e) => [e.effect.key, e.created, e.effect.contactKey])).toEqual([
        ['2001/9001:1:reply', true, KEY],
        ['2001/9001:2:escalate', true, KEY],
      ]);
      expect((await store.getConversation(KEY))?.transcript.map((l) => l.text)).toEqual(['hello', 'Hi!']);
      expect((await store.pendingEffects(KEY)).map((e) => e.key)).toEqual(['2001/9001:1:reply', '2001/9001:2:escalate']);
      // The mark is a finished effect: found by key, never performed.
      expect(await store.getEffect('2001/9001:decision')).toMatchObject({ kind: 'decision', status: 'done', attempts: 0, contactKey: KEY });
      expect(store.stats().pendingEffects).toBe(2);
    });

    it('records a decision once: a second one with the same key changes nothing, not even the conversation', async () => {
      const store = current();
      await store.saveConversation(conversation('1'));
      await store.recordDecision(decided());
      let asked = false;
      const again = await store.recordDecision(
        decided({
          update: (c) => {
            asked = true;
            return c && { ...c, dialog: { step: 'other' } };
          },
          effects: [
            { key: '2001/9001:1:reply', kind: 'reply', payload: { text: 'other' } },
            { key: '2001/9001:3:reply', kind: 'reply', payload: { text: 'new' } },
          ],
        }),
      );
      expect(asked).toBe(false);
      expect(again.recorded).toBe(false);
      expect(again.conversation?.dialog).toEqual({ step: 'asked' });
      expect(again.effects.map((e) => [e.effect.key, e.created, e.effect.payload])).toEqual([
        ['2001/9001:1:reply', false, { text: 'Hi!' }],
      ]);
      expect((await store.getConversation(KEY))?.transcript).toHaveLength(2);
      expect((await store.pendingEffects(KEY)).map((e) => e.key)).toEqual(['2001/9001:1:reply', '2001/9001:2:escalate']);
    });

    it('leaves an effect known before as it was and says so', async () => {
      const store = current();
      await store.saveConversation(conversation('1'));
      await store.enqueueEffect({ key: '2001/9001:1:reply', kind: 'reply', contactKey: KEY, payload: { text: 'before' } });
      await store.completeEffect('2001/9001:1:reply', { messageId: 'p1' });
      const result = await store.recordDecision(decided());
      expect(result.effects.map((e) => [e.effect.key, e.created, e.effect.status])).toEqual([
        ['2001/9001:1:reply', false, 'done'],
        ['2001/9001:2:escalate', true, 'pending'],
      ]);
    });

    it('refuses a bad effect or record and changes nothing', async () => {
      const store = current();
      await store.saveConversation(conversation('1'));
      const badEffect = await store
        .recordDecision(
          decided({
            effects: [
              { key: 'a', kind: 'reply', payload: 1 },
              { key: '', kind: 'reply', payload: 2 },
            ],
          }),
        )
        .catch((e: unknown) => e);
      expect(isStoreError(badEffect, 'invalid')).toBe(true);
      const badRecord = await store
        .recordDecision(decided({ update: (c) => c && ({ ...c, owner: 'nobody' } as unknown as ConversationRecord) }))
        .catch((e: unknown) => e);
      expect(isStoreError(badRecord, 'invalid')).toBe(true);
      const sameKey = await store
        .recordDecision(decided({ effects: [{ key: '2001/9001:decision', kind: 'reply', payload: 1 }] }))
        .catch((e: unknown) => e);
      expect(isStoreError(sameKey, 'invalid')).toBe(true);
      expect(await store.getConversation(KEY)).toEqual(conversation('1'));
      expect(await store.pendingEffects()).toEqual([]);
      expect(await store.getEffect('2001/9001:decision')).toBeUndefined();
    });

    it('records the effects of a contact with no conversation, and brings an archived one back', async () => {
      const store = current();
      const none = await store.recordDecision(decided());
      expect(none.conversation).toBeUndefined();
      expect((await store.pendingEffects(KEY)).map((e) => e.key)).toHaveLength(2);
      await store.saveConversation(conversation('2', { updatedAt: T0 - 40 * DAY }));
      expect(await store.archiveInactive()).toBe(1);
      const back = await store.recordDecision(decided({ contactKey: 'whatsapp:2', decidedKey: 'x:decision', effects: [] }));
      expect(back.conversation?.dialog).toEqual({ step: 'asked' });
      expect(await store.countByOwner()).toMatchObject({ bot: 1, archived: 0 });
      expect((await store.getConversation('whatsapp:2'))?.transcript.map((l) => l.text)).toEqual(['hello', 'Hi!']);
    });

    it('when asked to, resolves once the change is in memory, and flush makes it durable', async () => {
      const store = current();
      await store.saveConversation(conversation('1'));
      const result = await store.recordDecision(decided(), { wait: 'applied' });
      expect(result.recorded).toBe(true);
      expect((await store.getConversation(KEY))?.dialog).toEqual({ step: 'asked' });
      await store.flush();
      expect((await store.pendingEffects(KEY)).map((e) => e.key)).toHaveLength(2);
    });
  });
}
