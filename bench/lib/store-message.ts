// One customer message and the echo of the bot's reply, as the bridge's worker, outbox runner and reply performer call
// the store: the load of `store-message-cost.ts` and `wal-pages.ts`.
import { mentionRef } from '../../src/storage/index.js';
import type { ConversationRecord, Store } from '../../src/storage/index.js';

const TOPIC = '2001';
const BUTTONS = [
  { id: 'b1', title: 'Opening hours', payload: 'opening_hours' },
  { id: 'b2', title: 'Order status', payload: 'order_status' },
  { id: 'b3', title: 'Talk to an agent', payload: 'agent' },
];

/** The brain's dialog state after `turn` turns, about the size the bridge stores. */
function dialogState(turn: number, at: number, ids: string[]): Record<string, unknown> {
  return {
    v: 1,
    mode: 'bot',
    stretchStartedAt: at - turn * 1000,
    lastActivityAt: at,
    turn,
    offer: { menu: 'main', buttons: BUTTONS, at, numbered: false, cannedResponseId: '501' },
    menusOffered: { main: at },
    collected: {},
    lastIntent: 'thanks',
    fallbacks: 0,
    sentiments: ids.slice(-5).map(() => 'neutral'),
    awaySentInStretch: false,
    contactTagEscalated: false,
    recentMentionIds: ids.slice(-5),
    language: 'en',
    languageSource: 'detected',
  };
}

/**
 * One customer message and the echo of the bot's reply, as the bridge's worker, outbox runner and reply performer call
 * the store. `pause` stands for the waits outside the store: the reply's publish call, and the echo's way back (the
 * next poll or webhook push).
 */
export async function oneMessage(
  store: Store,
  key: string,
  n: number,
  seq: () => string,
  pause: (step: 'publish' | 'echo') => Promise<void> = async () => {},
): Promise<void> {
  const id = seq();
  const at = Date.now();
  const text = n % 2 === 0 ? 'thanks' : 'what are your opening hours';
  // Ingest: the mention recorded (durable before the webhook answers), the contact's worker scheduled at once.
  const inbound = store.recordInbound({
    id,
    topicId: TOPIC,
    key,
    addedAt: Math.floor(at / 1000),
    payload: { kind: 'customer', text, clicked: [] },
  });
  // The worker's run.
  await store.pendingEffects(key);
  await store.pendingInbound(key);
  const ref = mentionRef(TOPIC, id);
  await store.getEffect(`${ref}:decision`);
  const conv = (await store.getConversation(key)) as ConversationRecord;
  const ids = [...((conv.dialog as { recentMentionIds?: string[] } | undefined)?.recentMentionIds ?? []), id];
  const state = dialogState(n + 1, at, ids);
  const reply = `You're welcome, customer ${key}! Anything else?`;
  const replyPayload = { kind: 'reply', target: { mentionId: id, topicId: TOPIC }, text: reply, cannedResponseId: '501', buttons: BUTTONS };
  // The decision, written and applied as one unit (the customer's line, the new state and the bot's line, the reply),
  // then flushed: the worker's way (`wait: 'applied'`, then `flush` before any effect is performed).
  await store.recordDecision(
    {
      contactKey: key,
      decidedKey: `${ref}:decision`,
      update: (c) =>
        c
          ? {
              ...c,
              dialog: state,
              transcript: [
                ...c.transcript,
                { at, from: 'customer', text, mentionId: id, topicId: TOPIC },
                { at, from: 'bot', text: reply },
              ],
              lastInboundAt: at,
              lastMentionId: id,
              lastMentionTopicId: TOPIC,
              lastBotReplyAt: at,
              updatedAt: at,
            }
          : undefined,
      effects: [{ key: `${ref}:1:reply`, kind: 'reply', payload: replyPayload }],
    },
    { wait: 'applied' },
  );
  await store.flush();
  // The outbox runner: the reply, published once its decision is durable, its end flushed before anything else.
  await store.pendingEffects(key);
  await pause('publish');
  await store.getConversation(key);
  await store.completeEffect(`${ref}:1:reply`, { publishedId: `p${id}` });
  await store.flush();
  await store.getEffect(`${ref}:1:reply`);
  await store.pendingEffects(key);
  // The worker: the mention processed, the inbox read again.
  await store.markInboundProcessed(TOPIC, id);
  await store.pendingInbound(key);
  await inbound;
  // The echo of the reply comes back as the account's own mention: recorded and marked processed in the same turn,
  // durable before the webhook answers or the poller moves its cursor (src/bridge/intake/ingest.ts).
  await pause('echo');
  const echo = seq();
  await store.hasSeen(TOPIC, echo);
  const recorded = store.recordInbound({
    id: echo,
    topicId: TOPIC,
    key,
    addedAt: Math.floor(at / 1000),
    payload: { kind: 'account', text: reply, authorId: 'u1' },
  });
  await store.markInboundProcessed(TOPIC, echo);
  await recorded;
}

/** `contacts` conversations owned by the bot, saved and flushed: the load's contacts. */
export async function seedContacts(store: Store, contacts: number): Promise<string[]> {
  const keys = Array.from({ length: contacts }, (_, i) => `whatsapp:${32_480_000_000 + i}`);
  const now = Date.now();
  for (const key of keys) {
    const serviceId = key.slice('whatsapp:'.length);
    await store.saveConversation({
      key,
      channel: 'whatsapp',
      serviceId,
      owner: 'bot',
      ownerConfirmedAt: now,
      transcript: [],
      updatedAt: now,
    });
  }
  await store.flush();
  return keys;
}

const delay = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/**
 * `rounds` messages of every contact, each contact's in order. `rate` > 0: message i (round-robin over the contacts)
 * starts i / rate seconds in, else each contact's next as soon as its last is done. `apiMs`: the publish call and the
 * echo's way back each take that long. `pollMs` > 0: mentions arrive as a poller reads them, every `pollMs`: a
 * message starts at the first read after its time, its echo at the first read after its reply (plus `apiMs`).
 * Resolves with each message's time from its start to its decision flushed (ms).
 */
export async function driveLoad(
  store: Store,
  keys: string[],
  rounds: number,
  o: { rate: number; apiMs: number; pollMs?: number },
): Promise<number[]> {
  // Mention ids of one length, as Engage's: each new one sorts after the last.
  let next = 100_000_001;
  const seq = () => String(next++);
  const started = performance.now();
  const pollMs = o.pollMs ?? 0;
  // Until the first read at or after `at` (ms since the start) when polling, else until `at`.
  const until = (at: number) => delay(Math.max(0, started + (pollMs > 0 ? Math.ceil(at / pollMs) * pollMs : at) - performance.now()));
  const decided: number[] = [];
  await Promise.all(
    keys.map(async (key, c) => {
      for (let n = 0; n < rounds; n++) {
        if (o.rate > 0 || pollMs > 0) await until(o.rate > 0 ? ((n * keys.length + c) / o.rate) * 1000 : performance.now() - started);
        const start = performance.now();
        await oneMessage(store, key, n, seq, async (step) => {
          if (step === 'publish') decided.push(performance.now() - start);
          if (o.apiMs > 0) await delay(o.apiMs);
          if (step === 'echo' && pollMs > 0) await until(performance.now() - started);
        });
      }
    }),
  );
  await store.flush();
  return decided;
}
