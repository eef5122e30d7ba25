// The store's CPU per answered message, in one process, without the network or the simulator: every store call the
// bridge makes for one customer message and the echo of its reply, in the bridge's order, for many contacts at once.
// A steadier figure than the end-to-end bench on a shared machine. Prints one JSON object.
// Bytes: `storeBytesPerMessage` sums the values the store's statements bind (the rows' text and numbers, 8 bytes a
// number) per message; `ioBytesPerMessage` is what the process handed to write() meanwhile (Linux `/proc/self/io`
// wchar: the WAL's whole pages, checkpoints included), per message. `fsyncsPerMessage`: commits per message.
// Usage: npx tsx bench/store-message-cost.ts [--contacts 200] [--rounds 10] [--repeat 3] [--memory] [--against DIR]
//   --memory: the memory store (the same store on an in-memory SQLite database: no file I/O);
//   --against DIR: also another checkout's store (e.g. a `git worktree add /tmp/base <commit>`), runs taking turns in this
//   one process, so both see the same load on a shared machine.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as here from '../src/storage/index.js';
import type { ConversationRecord, Store } from '../src/storage/index.js';

type StoreModule = Pick<typeof here, 'openSqliteStore' | 'createMemoryStore' | 'mentionRef'>;
const { mentionRef } = here;

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

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

/** One customer message and the echo of the bot's reply, as the bridge's worker, outbox runner and reply performer call the store. */
async function oneMessage(store: Store, key: string, n: number, seq: () => string): Promise<void> {
  const id = seq();
  const at = Date.now();
  const text = n % 2 === 0 ? 'thanks' : 'what are your opening hours';
  await store.recordInbound({ id, topicId: TOPIC, key, addedAt: Math.floor(at / 1000), payload: { kind: 'customer', text, clicked: [] } });
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
  // The decision, committed and applied as one unit: the customer's line, the new state and the bot's line, the reply.
  await store.recordDecision({
    contactKey: key,
    decidedKey: `${ref}:decision`,
    update: (c) =>
      c
        ? {
            ...c,
            dialog: state,
            transcript: [...c.transcript, { at, from: 'customer', text, mentionId: id, topicId: TOPIC }, { at, from: 'bot', text: reply }],
            lastInboundAt: at,
            lastMentionId: id,
            lastMentionTopicId: TOPIC,
            updatedAt: at,
          }
        : undefined,
    effects: [{ key: `${ref}:1:reply`, kind: 'reply', payload: replyPayload }],
  });
  // The outbox runner: the reply.
  await store.pendingEffects(key);
  await store.getEffect(`${ref}:1:reply`);
  await store.getConversation(key);
  await store.completeEffect(`${ref}:1:reply`, { publishedId: `p${id}` });
  await store.updateConversation(key, (c) => (c ? { ...c, lastBotReplyAt: at, updatedAt: at } : undefined));
  await store.pendingEffects(key);
  await store.pendingInbound(key);
  await store.markInboundProcessed(TOPIC, id);
  // The echo of the reply comes back as the account's mention: the bot's line gets its mention id.
  const echo = seq();
  await store.recordInbound({
    id: echo,
    topicId: TOPIC,
    key,
    addedAt: Math.floor(at / 1000),
    payload: { kind: 'account', text: reply, authorId: 'u1' },
  });
  await store.pendingEffects(key);
  await store.pendingInbound(key);
  const before = (await store.getConversation(key)) as ConversationRecord;
  const index = before.transcript.length - 1;
  await store.updateConversation(key, (c) =>
    c ? { ...c, transcript: c.transcript.map((l, i) => (i === index ? { ...l, mentionId: echo, topicId: TOPIC } : l)) } : undefined,
  );
  await store.pendingEffects(key);
  await store.markInboundProcessed(TOPIC, echo);
}

async function run(
  storage: StoreModule,
  contacts: number,
  rounds: number,
): Promise<{
  cpuMsPerMessage: number;
  wallMsPerMessage: number;
  storeBytesPerMessage: number;
  ioBytesPerMessage: number | null;
  fsyncsPerMessage: number;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'store-message-cost-'));
  try {
    const store = process.argv.includes('--memory') ? storage.createMemoryStore() : await storage.openSqliteStore({ dataDir: dir });
    let next = 1;
    const seq = () => String(next++);
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
    const statsBefore = store.stats();
    const ioBefore = await writtenBytes();
    const cpu = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      keys.map(async (key) => {
        for (let n = 0; n < rounds; n++) await oneMessage(store, key, n, seq);
      }),
    );
    await store.flush();
    const used = process.cpuUsage(cpu);
    const wall = performance.now() - started;
    const statsAfter = store.stats();
    const ioAfter = await writtenBytes();
    await store.close();
    const messages = contacts * rounds;
    return {
      cpuMsPerMessage: Math.round(((used.user + used.system) / 1000 / messages) * 1000) / 1000,
      wallMsPerMessage: Math.round((wall / messages) * 1000) / 1000,
      storeBytesPerMessage: Math.round((statsAfter.journalBytes - statsBefore.journalBytes) / messages),
      ioBytesPerMessage: ioBefore === null || ioAfter === null ? null : Math.round((ioAfter - ioBefore) / messages),
      fsyncsPerMessage: Math.round(((statsAfter.fsyncs - statsBefore.fsyncs) / messages) * 1000) / 1000,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Bytes this process passed to write() so far (Linux); null elsewhere. */
async function writtenBytes(): Promise<number | null> {
  const io = await readFile('/proc/self/io', 'utf8').catch(() => '');
  const wchar = /^wchar: (\d+)$/m.exec(io);
  return wchar ? Number(wchar[1]) : null;
}

const contacts = argument('contacts', 200);
const rounds = argument('rounds', 10);
const againstIndex = process.argv.indexOf('--against');
const against = againstIndex >= 0 ? process.argv[againstIndex + 1] : undefined;
const stores: Array<[string, StoreModule]> = [['here', here]];
if (against) stores.push([against, (await import(resolve(against, 'src/storage/index.ts'))) as StoreModule]);
const runs: Record<string, Array<Awaited<ReturnType<typeof run>>>> = Object.fromEntries(stores.map(([name]) => [name, []]));
for (let i = 0; i < argument('repeat', 3); i++) {
  for (const [name, storage] of stores) runs[name]?.push(await run(storage, contacts, rounds));
}
const median = (name: string): number => {
  const cpu = (runs[name] ?? []).map((r) => r.cpuMsPerMessage).sort((a, b) => a - b);
  return cpu[Math.floor(cpu.length / 2)] ?? Number.NaN;
};
const store = process.argv.includes('--memory') ? 'memory' : 'file';
if (against) {
  const medians = Object.fromEntries(stores.map(([name]) => [name, median(name)]));
  process.stdout.write(`${JSON.stringify({ contacts, rounds, store, median_cpu_ms_per_message: medians, runs })}\n`);
} else {
  process.stdout.write(`${JSON.stringify({ contacts, rounds, store, median_cpu_ms_per_message: median('here'), runs: runs.here })}\n`);
}
