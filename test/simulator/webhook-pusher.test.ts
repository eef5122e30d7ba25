import { describe, expect, it } from 'vitest';
import { MAX_PUSH_BYTES, MAX_PUSH_ITEMS, WebhookPusher, type FetchLike } from '../../src/simulator/webhook-pusher.js';

/** A target whose answers the test releases one by one; it keeps every body it was sent. */
function heldTarget() {
  const bodies: unknown[][] = [];
  const waiting: Array<() => void> = [];
  const fetchFn: FetchLike = (_url, init) => {
    bodies.push(JSON.parse(init.body) as unknown[]);
    return new Promise((resolve) => waiting.push(() => resolve({ ok: true, status: 202 })));
  };
  const releaseAll = async (until: () => boolean) => {
    const deadline = Date.now() + 5000;
    while (!until()) {
      if (Date.now() > deadline) throw new Error('the pusher never finished');
      for (const answer of waiting.splice(0)) answer();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { bodies, waiting, fetchFn, releaseAll };
}

describe('webhook pusher', () => {
  it('sends the mentions that arrived while a push was unanswered together in the next push, in order', async () => {
    const target = heldTarget();
    const pusher = new WebhookPusher(target.fetchFn, async () => undefined);
    pusher.setUrl('http://127.0.0.1:1/hook');
    pusher.push([{ id: '1' }]);
    await new Promise((r) => setImmediate(r));
    expect(target.bodies).toEqual([[{ id: '1' }]]);
    pusher.push([{ id: '2' }]);
    pusher.push([{ id: '3' }]);
    pusher.push([{ id: '4' }]);
    expect(pusher.status().pending).toBe(4);
    await target.releaseAll(() => pusher.status().pending === 0);
    await pusher.idle();
    expect(target.bodies).toEqual([[{ id: '1' }], [{ id: '2' }, { id: '3' }, { id: '4' }]]);
    expect(pusher.status()).toMatchObject({ delivered: 4, failed: 0, pending: 0, pushes: 2 });
  });

  it('never puts more than a page of mentions in one push', async () => {
    const target = heldTarget();
    const pusher = new WebhookPusher(target.fetchFn, async () => undefined);
    pusher.setUrl('http://127.0.0.1:1/hook');
    pusher.push([{ id: 'first' }]);
    for (let i = 0; i < MAX_PUSH_ITEMS + 5; i++) pusher.push([{ id: String(i) }]);
    await target.releaseAll(() => pusher.status().pending === 0);
    await pusher.idle();
    expect(target.bodies.map((b) => b.length)).toEqual([1, MAX_PUSH_ITEMS, 5]);
    expect(target.bodies.flat().map((m) => (m as { id: string }).id)).toEqual([
      'first',
      ...Array.from({ length: MAX_PUSH_ITEMS + 5 }, (_, i) => String(i)),
    ]);
  });

  it('sends a huge mention in a push of its own, so one large text never makes a push too large for its neighbours', async () => {
    const target = heldTarget();
    const pusher = new WebhookPusher(target.fetchFn, async () => undefined);
    pusher.setUrl('http://127.0.0.1:1/hook');
    pusher.push([{ id: 'first' }]);
    pusher.push([{ id: 'a' }]);
    pusher.push([{ id: 'huge', text: 'x'.repeat(MAX_PUSH_BYTES) }]);
    pusher.push([{ id: 'b' }]);
    await target.releaseAll(() => pusher.status().pending === 0);
    await pusher.idle();
    expect(target.bodies.map((b) => b.map((m) => (m as { id: string }).id))).toEqual([['first'], ['a'], ['huge'], ['b']]);
  });

  it('gives up only the oldest mention of a push that keeps failing; the others go out with the next push', async () => {
    const bodies: string[][] = [];
    let failuresLeft = 0;
    const waiting: Array<() => void> = [];
    const fetchFn: FetchLike = (_url, init) => {
      bodies.push((JSON.parse(init.body) as Array<{ id: string }>).map((m) => m.id));
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        return Promise.resolve({ ok: false, status: 503 });
      }
      return new Promise((resolve) => waiting.push(() => resolve({ ok: true, status: 202 })));
    };
    const pusher = new WebhookPusher(fetchFn, async () => undefined);
    pusher.setUrl('http://127.0.0.1:1/hook');
    pusher.push([{ id: '1' }]);
    await new Promise((r) => setImmediate(r));
    pusher.push([{ id: '2' }]);
    pusher.push([{ id: '3' }]);
    pusher.push([{ id: '4' }]);
    failuresLeft = 4; // every try of the next push
    const deadline = Date.now() + 5000;
    while (pusher.status().pending > 0) {
      if (Date.now() > deadline) throw new Error('the pusher never finished');
      for (const answer of waiting.splice(0)) answer();
      await new Promise((r) => setImmediate(r));
    }
    await pusher.idle();
    expect(bodies).toEqual([['1'], ['2', '3', '4'], ['2', '3', '4'], ['2', '3', '4'], ['2', '3', '4'], ['3', '4']]);
    expect(pusher.status()).toMatchObject({ delivered: 3, failed: 1, pending: 0, pushes: 2 });
  });

  it('gives up what waited for a target that was replaced', async () => {
    const target = heldTarget();
    const pusher = new WebhookPusher(target.fetchFn, async () => undefined);
    pusher.setUrl('http://127.0.0.1:1/old');
    pusher.push([{ id: '1' }]);
    pusher.push([{ id: '2' }]);
    await new Promise((r) => setImmediate(r));
    pusher.setUrl('http://127.0.0.1:1/new');
    await target.releaseAll(() => pusher.status().pending === 0);
    await pusher.idle();
    expect(target.bodies).toEqual([[{ id: '1' }]]);
    expect(pusher.status()).toMatchObject({ url: 'http://127.0.0.1:1/new', delivered: 1, failed: 1, pending: 0 });
  });
});
