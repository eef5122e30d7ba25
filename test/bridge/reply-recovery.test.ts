import { describe, expect, it } from 'vitest';
import { runPendingEffects } from '../../src/bridge/effects/outbox-runner.js';
import { findPublishedReply } from '../../src/bridge/effects/reply-check.js';
import { performReply } from '../../src/bridge/effects/perform-reply.js';

import { TARGET, botOwns, effectTestContext } from './effects/effect-test-context.js';

const KEY = 'whatsapp:32470000401';
const reply = (text: string) => ({ kind: 'reply', target: TARGET, text });
const count = (t: ReturnType<typeof effectTestContext>, what: string) => t.calls.filter((c) => c.what === what).length;

describe('a reply is recorded when the service answers, and re-checked by id only when its outcome is unknown', () => {
  it('records the publisher mention id at once, so a failure after publishing never sends the reply twice', async () => {
    const t = effectTestContext();
    await botOwns(t.store, KEY, t.ctx.now());
    await t.store.enqueueEffect({ key: '9001:1:reply', kind: 'reply', contactKey: KEY, payload: reply('Hello Ann') });
    t.ctx.clean.add('9001:1:reply');
    const update = t.store.updateConversation.bind(t.store);
    let broken = true;
    t.store.updateConversation = async (key, fn) => {
      if (broken && t.calls.some((c) => c.what === 'publisher.add')) {
        broken = false;
        throw new Error('disk hiccup');
      }
      return update(key, fn);
    };
    await runPendingEffects(t.ctx, KEY, t.escalations);
    t.setNow(t.ctx.now() + 10 * 60_000);
    await runPendingEffects(t.ctx, KEY, t.escalations);
    const effect = await t.store.getEffect('9001:1:reply');
    expect(effect?.status).toBe('done');
    expect(effect?.result).toMatchObject({ publisherMentionId: 'pm-1' });
    expect(count(t, 'publisher.add')).toBe(1);
  });

  it('records a reply without writing the conversation again: its line and lastBotReplyAt came with the decision (#28)', async () => {
    const t = effectTestContext();
    await botOwns(t.store, KEY, t.ctx.now());
    await t.store.enqueueEffect({ key: '9001:1:reply', kind: 'reply', contactKey: KEY, payload: reply('Hello Ann') });
    t.ctx.clean.add('9001:1:reply');
    const update = t.store.updateConversation.bind(t.store);
    let updates = 0;
    t.store.updateConversation = async (key, fn) => {
      updates += 1;
      return update(key, fn);
    };
    await runPendingEffects(t.ctx, KEY, t.escalations);
    expect(count(t, 'publisher.add')).toBe(1);
    expect((await t.store.getEffect('9001:1:reply'))?.status).toBe('done');
    expect(updates).toBe(0);
  });

  it('reads the conversation once for a reply: the owner check uses that same read', async () => {
    const t = effectTestContext();
    await botOwns(t.store, KEY, t.ctx.now());
    await t.store.enqueueEffect({ key: '9001:1:reply', kind: 'reply', contactKey: KEY, payload: reply('Hello Ann') });
    const effect = (await t.store.getEffect('9001:1:reply'))!;
    const get = t.store.getConversation.bind(t.store);
    let reads = 0;
    t.store.getConversation = async (key) => {
      reads += 1;
      return get(key);
    };
    const result = await performReply(t.ctx.performerDeps, effect, { kind: 'reply', target: TARGET, text: 'Hello Ann' }, false);
    expect(result).toMatchObject({ publisherMentionId: 'pm-1' });
    expect(reads).toBe(1);
  });

  it('re-checks with bounded calls and sends nothing blind when the bound is reached first', async () => {
    // Many identical greetings answering other mentions: the list does not say which mention each answers.
    const page = (n: number) => ({
      data: Array.from({ length: 10 }, (_, i) => ({ id: `pm-${n}-${i}`, message: { content: 'Hello Ann' } })),
      paging: { next_url: 'more' },
    });
    const t = effectTestContext({
      publisherMentions: {
        listPages: async function* () {
          for (let n = 0; n < 100; n++) yield page(n);
        },
        get: (id: string) => ({ id, in_reply_to: { id: 'another', topic_id: '2001' } }),
      },
    });
    await botOwns(t.store, KEY, t.ctx.now());
    await t.store.enqueueEffect({ key: '9001:1:reply', kind: 'reply', contactKey: KEY, payload: reply('Hello Ann') });
    await runPendingEffects(t.ctx, KEY, t.escalations);
    expect(count(t, 'publisherMentions.get')).toBeLessThanOrEqual(20);
    expect(count(t, 'publisher.add')).toBe(0);
    const effect = await t.store.getEffect('9001:1:reply');
    expect(effect?.status).toBe('pending');
    expect(effect?.retryAt).toBeGreaterThan(t.ctx.now());
  });

  it('finds a published reply by the customer mention id the service names in_reply_to', async () => {
    const t = effectTestContext({
      publisherMentions: {
        listPages: async function* () {
          yield {
            data: [
              { id: 'pm-a', message: { content: 'Hello Ann' } },
              { id: 'pm-b', message: { content: 'Hello Ann' } },
            ],
          };
        },
        get: (id: string) => ({ id, in_reply_to: { id: id === 'pm-b' ? TARGET.mentionId : 'other', topic_id: '2001' } }),
      },
    });
    await botOwns(t.store, KEY, t.ctx.now());
    await t.store.enqueueEffect({ key: '9001:1:reply', kind: 'reply', contactKey: KEY, payload: reply('Hello Ann') });
    await runPendingEffects(t.ctx, KEY, t.escalations);
    expect(count(t, 'publisher.add')).toBe(0);
    expect((await t.store.getEffect('9001:1:reply'))?.result).toMatchObject({ publisherMentionId: 'pm-b', recovered: true });
  });

  it('looks up a listed reply that cannot be read by its id alone, and finds it published', async () => {
    const t = effectTestContext({
      publisherMentions: {
        listPages: async function* () {
          yield {
            data: [{ id: 'pm-a', message: { content: 'Hello Ann' } }],
            invalid: [{ id: 'pm-odd', problem: 'date.added: expected a number' }],
          };
        },
        get: (id: string) => ({
          id,
          message: { content: 'Hello Ann' },
          in_reply_to: { id: id === 'pm-odd' ? TARGET.mentionId : 'other', topic_id: '2001' },
        }),
      },
    });
    await botOwns(t.store, KEY, t.ctx.now());
    await t.store.enqueueEffect({ key: '9001:1:reply', kind: 'reply', contactKey: KEY, payload: reply('Hello Ann') });
    await runPendingEffects(t.ctx, KEY, t.escalations);
    expect(count(t, 'publisher.add')).toBe(0);
    expect((await t.store.getEffect('9001:1:reply'))?.result).toMatchObject({ publisherMentionId: 'pm-odd', recovered: true });
  });

  it('sends nothing blind when a listed reply cannot be read at all: the re-check is tried again later', async () => {
    const t = effectTestContext({
      publisherMentions: {
        listPages: async function* () {
          yield { data: [{ id: 'pm-a', message: { content: 'Hello Ann' } }], invalid: [{ id: undefined, problem: 'id: expected an id' }] };
        },
        get: (id: string) => ({ id, in_reply_to: { id: 'other', topic_id: '2001' } }),
      },
    });
    await botOwns(t.store, KEY, t.ctx.now());
    await t.store.enqueueEffect({ key: '9001:1:reply', kind: 'reply', contactKey: KEY, payload: reply('Hello Ann') });
    await runPendingEffects(t.ctx, KEY, t.escalations);
    expect(count(t, 'publisher.add')).toBe(0);
    const effect = await t.store.getEffect('9001:1:reply');
    expect(effect?.status).toBe('pending');
    expect(effect?.retryAt).toBeGreaterThan(t.ctx.now());
  });

  it('takes a reply to the same mention id in another topic for another mention, and sends its own (#11.10)', async () => {
    const t = effectTestContext({
      publisherMentions: {
        listPages: async function* () {
          yield { data: [{ id: 'pm-other-topic', message: { content: 'Hello Ann' } }] };
        },
        get: (id: string) => ({ id, in_reply_to: { id: TARGET.mentionId, topic_id: '2002' } }),
      },
    });
    await botOwns(t.store, KEY, t.ctx.now());
    await t.store.enqueueEffect({ key: '9001:1:reply', kind: 'reply', contactKey: KEY, payload: reply('Hello Ann') });
    await runPendingEffects(t.ctx, KEY, t.escalations);
    expect(count(t, 'publisherMentions.get')).toBe(1);
    expect(count(t, 'publisher.add')).toBe(1);
  });

  it("takes an agent's reply to the same mention, with the same text, for the agent's: the bot's own is sent (mention 9870)", async () => {
    const t = effectTestContext({
      publisherMentions: {
        listPages: async function* () {
          yield { data: [{ id: 'pm-agent', message: { content: 'Hello Ann' } }] };
        },
        get: (id: string) => ({
          id,
          user_id: 'agent-7',
          message: { content: 'Hello Ann' },
          in_reply_to: { id: TARGET.mentionId, topic_id: '2001' },
        }),
      },
    });
    await t.store.setMeta({ values: { botUser: { id: 'u1', name: 'Engage Bot' } } });
    await botOwns(t.store, KEY, t.ctx.now());
    await t.store.enqueueEffect({ key: '9001:1:reply', kind: 'reply', contactKey: KEY, payload: reply('Hello Ann') });
    await runPendingEffects(t.ctx, KEY, t.escalations);
    expect(count(t, 'publisherMentions.get')).toBe(1);
    expect(count(t, 'publisher.add')).toBe(1);
    expect((await t.store.getEffect('9001:1:reply'))?.result).not.toMatchObject({ recovered: true });
  });

  it("finds the bot's own reply by its user among people's replies to the same mention", async () => {
    const t = effectTestContext({
      publisherMentions: {
        listPages: async function* () {
          yield {
            data: [
              { id: 'pm-agent', message: { content: 'Hello Ann' } },
              { id: 'pm-bot', message: { content: 'Hello, Ann' } },
            ],
          };
        },
        get: (id: string) => ({
          id,
          user_id: id === 'pm-bot' ? 'u1' : 'agent-7',
          in_reply_to: { id: TARGET.mentionId, topic_id: '2001' },
        }),
      },
    });
    await t.store.setMeta({ values: { botUser: { id: 'u1', name: 'Engage Bot' } } });
    await botOwns(t.store, KEY, t.ctx.now());
    await t.store.enqueueEffect({ key: '9001:1:reply', kind: 'reply', contactKey: KEY, payload: reply('Hello Ann') });
    await runPendingEffects(t.ctx, KEY, t.escalations);
    expect(count(t, 'publisher.add')).toBe(0);
    expect((await t.store.getEffect('9001:1:reply'))?.result).toMatchObject({ publisherMentionId: 'pm-bot', recovered: true });
  });

  it('after a restart re-checks only the reply that may have been in flight, not the ones after it', async () => {
    const t = effectTestContext();
    await botOwns(t.store, KEY, t.ctx.now());
    for (const [i, text] of ['one', 'two', 'three'].entries()) {
      await t.store.enqueueEffect({ key: `9001:${i + 1}:reply`, kind: 'reply', contactKey: KEY, payload: reply(text) });
    }
    // A new process: nothing is known clean.
    await runPendingEffects(t.ctx, KEY, t.escalations);
    expect(count(t, 'publisherMentions.listPages')).toBe(1);
    expect(count(t, 'publisher.add')).toBe(3);
  });

  it('a send that timed out is looked for in a listing begun once its retry was due, not in an earlier shared one', async () => {
    const t = effectTestContext();
    const t0 = t.ctx.now();
    await botOwns(t.store, KEY, t0);
    // The customer's line: the re-check's window starts at its date.
    await t.store.updateConversation(KEY, (c) =>
      c
        ? { ...c, transcript: [{ at: t0 - 5_000, from: 'customer', text: 'hi', mentionId: TARGET.mentionId, topicId: TARGET.topicId }] }
        : undefined,
    );
    await t.store.enqueueEffect({ key: '9001:1:reply', kind: 'reply', contactKey: KEY, payload: reply('Hello Ann') });
    await t.store.failEffect('9001:1:reply', 'outcome unknown: POST publisher/add timed out', t0 + 2_000);
    // Another contact's re-check lists the replies after the failure was recorded, before the retry is due.
    t.setNow(t0 + 1_000);
    await findPublishedReply(
      t.ctx.performerDeps.engage,
      { mentionId: '7001', text: 'x', serviceFromMs: t0 - 10_000, notBeforeMs: t0 },
      t.ctx.now,
    );
    t.setNow(t0 + 2_500);
    await runPendingEffects(t.ctx, KEY, t.escalations);
    // The send may have landed after that listing began: the re-check reads again before sending.
    expect(count(t, 'publisherMentions.listPages')).toBe(2);
    expect(count(t, 'publisher.add')).toBe(1);
  });
});
