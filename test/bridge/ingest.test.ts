import { describe, expect, it } from 'vitest';
import { INBOUND_TEXT_MAX_CHARS, ingestMentions } from '../../src/bridge/ingest.js';
import { mentionSchema } from '../../src/engage/index.js';
import { createMemoryStore } from '../../src/storage/index.js';

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
});
