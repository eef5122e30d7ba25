import { describe, expect, it } from 'vitest';
import { INBOUND_TEXT_MAX_CHARS, ingestMentions, parseWebhookBody } from '../../../src/bridge/intake/ingest.js';
import { mentionSchema } from '../../../src/engage/index.js';
import { createMemoryStore } from '../../../src/storage/index.js';
import { CHANNELS, customerMention, recordingCalls } from './intake-fixtures.js';

describe('ingesting mentions', () => {
  it('keeps only the first part of a huge inbound text, from the moment it arrives', async () => {
    const store = await createMemoryStore();
    const huge = 'x'.repeat(4 * 1024 * 1024);
    const m = mentionSchema.parse({
      id: '1',
      topic_id: '2001',
      date: { added: 100 },
      source: { service: 'whatsapp' },
      author: { id: '+3200000021', name: 'Ann' },
      message: { content: huge },
    });
    const r = await ingestMentions(store, [m], { channelBySource: new Map([['whatsapp', 'whatsapp']]), schedule: () => undefined });
    expect(r.recorded).toBe(1);
    const [kept] = await store.pendingInbound();
    const text = kept?.payload && 'text' in (kept.payload as object) ? (kept.payload as { text: string }).text : '';
    expect(text.length).toBe(INBOUND_TEXT_MAX_CHARS);
    expect(text.endsWith('…')).toBe(true);
    await store.close();
  });

  it('takes a mention its list read found recorded as a repeat without asking the store again, and asks for the rest', async () => {
    const store = await createMemoryStore();
    const first = customerMention('1');
    await ingestMentions(store, [first], { channelBySource: CHANNELS, schedule: () => undefined });
    const { store: counting, asked } = recordingCalls(store);
    const again = customerMention('1');
    const fresh = customerMention('2');
    const r = await ingestMentions(counting, [again, fresh], {
      channelBySource: CHANNELS,
      schedule: () => undefined,
      known: new Set([again]),
    });
    expect(r).toMatchObject({ recorded: 1, repeated: 1 });
    expect(asked).toEqual(['2001/2']);
    await store.close();
  });

  it('takes a pushed mention whose unread fields are odd, and refuses one whose read fields are', () => {
    const pushed = {
      id: 9001,
      topic_id: 2001,
      date: { added: 100 },
      source: { service: 'whatsapp' },
      author: { id: '+3200000021', name: 'Ann' },
      message: { content: 'hello' },
      clicked_buttons: [{ title: 'Opening hours' }],
    };
    // Nothing reads these: an odd value there must not cost the customer's message.
    const oddUnread = { ...pushed, attachments: 'not a list', tags: 5, timestamps: 'soon', assignment: 'nobody' };
    const read = parseWebhookBody([oddUnread]);
    expect(read).toMatchObject({ invalid: 0, mentions: [{ id: '9001', topic_id: '2001', message: { content: 'hello' } }] });
    expect('mentions' in read && read.mentions[0]).not.toHaveProperty('attachments');
    // What the bridge reads is checked as before.
    for (const oddRead of [
      { ...pushed, author: 'Ann' },
      { ...pushed, message: { content: 5 } },
      { ...pushed, date: { added: 'yesterday' } },
      { ...pushed, clicked_buttons: [{ id: 1 }] },
      { ...pushed, actions: 'replied' },
    ]) {
      expect(parseWebhookBody([oddRead, pushed])).toMatchObject({ invalid: 1, mentions: [{ id: '9001' }] });
    }
  });

  describe('an account-written mention', () => {
    const channels = new Map([['whatsapp', 'whatsapp']]);
    const accountMention = (id: string, authorName: string) =>
      mentionSchema.parse({
        id,
        topic_id: '2001',
        date: { added: 100 },
        source: { service: 'whatsapp', thread_id: '+3200000021' },
        author: { id: '3225550100', name: authorName, managed: true },
        message: { content: 'We are open from 9 to 5.' },
      });

    it("is recorded as done, without a run of the contact's worker, when the service names the bot's own user", async () => {
      const store = await createMemoryStore();
      await store.setMeta({ values: { botUser: { id: 'u1', name: 'Engage Bot' } } });
      const scheduled: string[] = [];
      const r = await ingestMentions(store, [accountMention('echo-1', 'Engage Bot')], {
        channelBySource: channels,
        schedule: (k) => scheduled.push(k),
      });
      expect(scheduled).toEqual([]);
      expect(r).toMatchObject({ recorded: 1, repeated: 0, history: 0 });
      expect(await store.hasSeen('2001', 'echo-1')).toBe(true);
      expect(await store.pendingInbound()).toEqual([]);
      // Read again by the next poll: a repeat, still nothing to do.
      const again = await ingestMentions(store, [accountMention('echo-1', 'Engage Bot')], {
        channelBySource: channels,
        schedule: (k) => scheduled.push(k),
      });
      expect(again).toMatchObject({ recorded: 0, repeated: 1 });
      expect(scheduled).toEqual([]);
      await store.close();
    });

    it("goes to the contact's worker when another user wrote it, or while the bot's user has no known name", async () => {
      for (const [meta, author] of [
        [{ id: 'u1', name: 'Engage Bot' }, 'Agent Smith'],
        [{ id: 'u1' }, 'Engage Bot'],
      ] as const) {
        const store = await createMemoryStore();
        await store.setMeta({ values: { botUser: meta } });
        const scheduled: string[] = [];
        await ingestMentions(store, [accountMention('m-1', author)], { channelBySource: channels, schedule: (k) => scheduled.push(k) });
        expect(scheduled).toEqual(['whatsapp:+3200000021']);
        expect(await store.pendingInbound()).toHaveLength(1);
        await store.close();
      }
    });
  });

  describe("a reply action on a customer's mention", () => {
    const channels = new Map([['whatsapp', 'whatsapp']]);
    const answered = (userId: string | undefined) =>
      mentionSchema.parse({
        id: 'c-1',
        topic_id: '2001',
        date: { added: 100 },
        source: { service: 'whatsapp' },
        author: { id: '+3200000021', name: 'Ann' },
        message: { content: 'hello' },
        actions: [{ type: 'reply', ...(userId ? { user_id: userId } : {}), date: { added: 110 } }],
      });
    const kindsAfter = async (botUser: { id: string; name?: string } | undefined, userId: string | undefined) => {
      const store = await createMemoryStore();
      if (botUser) await store.setMeta({ values: { botUser } });
      await ingestMentions(store, [answered(userId)], { channelBySource: channels, schedule: () => undefined });
      const kinds = (await store.pendingInbound()).map((i) => (i.payload as { kind: string }).kind);
      await store.close();
      return kinds;
    };

    it("is a person's only when the bot's user is known and the action names another user", async () => {
      expect(await kindsAfter({ id: 'u1', name: 'Engage Bot' }, 'agent-7')).toEqual(['customer', 'agent-action']);
    });

    it("is dropped when it names the bot's own user", async () => {
      expect(await kindsAfter({ id: 'u1', name: 'Engage Bot' }, 'u1')).toEqual(['customer']);
    });

    it("is only the account having written (the handover item decides, no takeover) while the bot's user is unknown or the action names nobody", async () => {
      expect(await kindsAfter(undefined, 'u1')).toEqual(['customer', 'account']);
      expect(await kindsAfter({ id: 'u1', name: 'Engage Bot' }, undefined)).toEqual(['customer', 'account']);
    });
  });
});
