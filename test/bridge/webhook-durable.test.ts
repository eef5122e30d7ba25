import { describe, expect, it } from 'vitest';
import { takeWebhookPush } from '../../src/bridge/intake/webhook-intake.js';
import type { Mention } from '../../src/engage/index.js';
import { createBridgeMetrics } from '../../src/metrics/bridge-metrics.js';
import { createMemoryStore, type Store } from '../../src/storage/index.js';

const mention = {
  id: '9001',
  topic_id: '2001',
  author: { id: '32470000091', name: 'Ann' },
  source: { service: 'whatsapp' },
  message: { content: 'hello' },
  date: { added: 1_794_992_400 },
} as unknown as Mention;

describe('a webhook push', () => {
  it('is answered only once what it brought is on disk: a power cut after the answer must not lose it', async () => {
    const store = createMemoryStore({ clock: () => 1_794_992_400_000 });
    let release = (): void => undefined;
    const onDisk = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The store records at once in memory; its durable write is held until the test lets it go.
    const held = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'recordInbound') {
          return async (m: Parameters<Store['recordInbound']>[0]) => {
            const recorded = await target.recordInbound(m);
            await onDisk;
            return recorded;
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    let answered = false;
    const push = takeWebhookPush([mention], {
      store: held,
      metrics: createBridgeMetrics({ defaultMetrics: false }),
      topicIds: async () => ['2001'],
      schedule: () => undefined,
      fetchMention: async () => undefined,
      channelBySource: new Map([['whatsapp', 'whatsapp']]),
    }).then((r) => {
      answered = true;
      return r;
    });
    for (let i = 0; i < 20; i++) await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    expect(answered).toBe(false);
    release();
    expect(await push).toMatchObject({ accepted: 1 });
  });
});
