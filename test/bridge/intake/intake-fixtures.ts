// What the intake tests share: a customer's mention as the service lists it, and a store that records the calls made
// to it.
import { type Mention, mentionSchema } from '../../../src/engage/index.js';
import type { Store } from '../../../src/storage/index.js';

export const CHANNELS = new Map([['whatsapp', 'whatsapp']]);

/** A customer's WhatsApp mention in topic 2001, read as the client reads a listed one. */
export function customerMention(id: string): Mention {
  return mentionSchema.parse({
    id,
    topic_id: '2001',
    date: { added: 100 },
    source: { service: 'whatsapp' },
    author: { id: '+3200000021', name: 'Ann' },
    message: { content: 'hello' },
  });
}

/**
 * The store, with every call made to it recorded by method name; `asked` lists the mentions `hasSeen` was asked
 * about (`topicId/id`).
 */
export function recordingCalls(store: Store): { store: Store; calls: string[]; asked: string[] } {
  const calls: string[] = [];
  const asked: string[] = [];
  const proxy = new Proxy(store, {
    get: (target, name, receiver) => {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(name));
        if (name === 'hasSeen') asked.push(`${String(args[0])}/${String(args[1])}`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls, asked };
}
