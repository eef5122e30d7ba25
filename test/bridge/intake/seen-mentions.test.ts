import { describe, expect, it } from 'vitest';
import { ingestMentions } from '../../../src/bridge/intake/ingest.js';
import { SeenMentions } from '../../../src/bridge/intake/seen-mentions.js';
import { createMemoryStore } from '../../../src/storage/index.js';
import { CHANNELS as channels, customerMention as customer, recordingCalls } from './intake-fixtures.js';

describe('the memory of recorded mentions', () => {
  it('answers the re-reads of a mention recorded in this process without asking the store, and asks about the rest', async () => {
    const inner = await createMemoryStore();
    const { store, asked } = recordingCalls(inner);
    const seen = new SeenMentions(store);
    await ingestMentions(store, [customer('1')], { channelBySource: channels, schedule: () => undefined, seen });
    asked.length = 0;
    // A poll's overlap reads it again, twice, beside a new one.
    const again = await ingestMentions(store, [customer('1'), customer('2')], {
      channelBySource: channels,
      schedule: () => undefined,
      seen,
    });
    const third = await ingestMentions(store, [customer('1')], { channelBySource: channels, schedule: () => undefined, seen });
    expect(again).toMatchObject({ recorded: 1, repeated: 1 });
    expect(third).toMatchObject({ recorded: 0, repeated: 1 });
    expect(asked).toEqual(['2001/2']);
    expect(await seen.has('2001', '2')).toBe(true);
    await inner.close();
  });

  it('remembers only durable records: a record that failed leaves the mention to the store to answer', async () => {
    const inner = await createMemoryStore();
    const { store, asked } = recordingCalls(inner);
    const seen = new SeenMentions(store);
    const failing = new Proxy(store, {
      get: (target, name, receiver) =>
        name === 'recordInbound' ? () => Promise.reject(new Error('disk full')) : Reflect.get(target, name, receiver),
    });
    await expect(ingestMentions(failing, [customer('1')], { channelBySource: channels, schedule: () => undefined, seen })).rejects.toThrow(
      'disk full',
    );
    expect(await seen.has('2001', '1')).toBe(false);
    expect(asked).toEqual(['2001/1', '2001/1']);
    await inner.close();
  });

  it('forgets the oldest first when full, and never remembers a "no"', async () => {
    const inner = await createMemoryStore();
    const { store, asked } = recordingCalls(inner);
    const seen = new SeenMentions(store, 2);
    seen.recorded('2001', '1');
    seen.recorded('2001', '2');
    seen.recorded('2001', '3');
    expect(seen.size).toBe(2);
    expect(await seen.has('2001', '3')).toBe(true);
    expect(await seen.has('2001', '2')).toBe(true);
    expect(asked).toEqual([]);
    // Forgotten: the store is asked (and, not having it, says no; asked again next time).
    expect(await seen.has('2001', '1')).toBe(false);
    expect(await seen.has('2001', '1')).toBe(false);
    expect(asked).toEqual(['2001/1', '2001/1']);
    await inner.close();
  });

  it('asks the store nothing for a page read again whose mentions the list found recorded', async () => {
    const inner = await createMemoryStore();
    const seen = new SeenMentions(inner);
    const first = customer('1');
    await ingestMentions(inner, [first], { channelBySource: channels, schedule: () => undefined, seen });
    const { store, calls } = recordingCalls(inner);
    const again = customer('1');
    const r = await ingestMentions(store, [again], { channelBySource: channels, schedule: () => undefined, seen, known: new Set([again]) });
    expect(r).toMatchObject({ recorded: 0, repeated: 1 });
    expect(calls).toEqual([]);
    // A mention not known recorded still has the store read what it needs (the bot's user, whether it was seen).
    await ingestMentions(store, [customer('2')], { channelBySource: channels, schedule: () => undefined, seen });
    expect(calls).toContain('getMeta');
    await inner.close();
  });
});
