import { openSqliteStore, type ConversationRecord } from '../../src/storage/index.js';

/** Service ids of the seeded conversations start here; the live load uses other ranges. */
export const SEEDED_FIRST_ID = 32_470_000_000;

/** The i-th stored conversation of a seeded data directory, as the bridge would have left it. */
export function storedConversation(i: number, lines: number, now: number): ConversationRecord {
  const serviceId = String(SEEDED_FIRST_ID + i);
  return {
    key: `whatsapp:${serviceId}`,
    channel: 'whatsapp',
    serviceId,
    topicId: '2001',
    contactName: `Stored customer ${i}`,
    owner: i % 10 === 0 ? 'agents' : 'bot',
    ownerConfirmedAt: now - 3_600_000,
    transcript: Array.from({ length: lines }, (_, n) => ({
      at: now - (lines - n) * 60_000,
      from: n % 2 === 0 ? ('customer' as const) : ('bot' as const),
      text: n % 2 === 0 ? 'Where is my order? It should have arrived yesterday.' : 'Let me check that for you: one moment please.',
      mentionId: String(1_000_000 + i * lines + n),
    })),
    lastInboundAt: now - 60_000,
    lastMentionId: String(1_000_000 + i * lines),
    lastMentionTopicId: '2001',
    // Recent enough that nothing is archived: all of them stay in the hot store the bridge loads.
    updatedAt: now - (i % 100) * 60_000,
  };
}

/**
 * Fills a data directory with `count` conversations through the store's own API (the bridge must not be running
 * on it), as if the bridge had served them. Returns how long it took.
 */
export async function seedConversations(dataDir: string, count: number, lines = 6, now = Date.now()): Promise<{ ms: number }> {
  const started = performance.now();
  const store = await openSqliteStore({ dataDir });
  try {
    for (let i = 0; i < count; i++) await store.saveConversation(storedConversation(i, lines, now));
    // The bridge takes an existing store as already started: without a baseline it would treat this as a first start.
    await store.setMeta({ baselineAt: now - 3_600_000 });
    await store.flush();
  } finally {
    await store.close();
  }
  return { ms: Math.round(performance.now() - started) };
}
