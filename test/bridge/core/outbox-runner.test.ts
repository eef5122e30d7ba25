import { describe, expect, it } from 'vitest';
import { MAX_EFFECT_ATTEMPTS } from '../../../src/bridge/effects/effect-errors.js';
import { deadEffects } from '../../../src/bridge/effects/effect-dead.js';
import { runPendingEffects } from '../../../src/bridge/effects/outbox-runner.js';
import { AuthError, InvalidParameterError, RateLimitError, ServerError } from '../../../src/engage/index.js';
import { TARGET, botOwns, effectTestContext, escalatePayload } from '../effects/effect-test-context.js';

const KEY = 'whatsapp:32470000601';
const site = { method: 'POST', path: '/1001/publisher/add', status: 503, serviceError: 'server_error', description: 'down' };
const reply = (text: string, extra: Record<string, unknown> = {}) => ({ kind: 'reply', target: TARGET, text, ...extra });

/** A context whose `publisher.add` throws the given errors, one per call, then answers. */
function withFailures(...errors: unknown[]) {
  const sent: string[] = [];
  const t = effectTestContext({
    publisher: {
      add: (r: { message: string }) => {
        const err = errors.shift();
        if (err) throw err;
        sent.push(r.message);
        return { messages: [{ id: `m-${sent.length}` }], publisher_mention: { id: `pm-${sent.length}` } };
      },
    },
  });
  const woken: Array<{ key: string; atMs: number | undefined }> = [];
  (t.ctx as { wake: (key: string, atMs?: number) => void }).wake = (key, atMs) => woken.push({ key, atMs });
  return { ...t, sent, woken };
}

async function enqueueReplies(t: ReturnType<typeof effectTestContext>, ...texts: string[]) {
  await botOwns(t.store, KEY, t.ctx.now());
  for (const [i, text] of texts.entries()) {
    const key = `9001:${i + 1}:reply`;
    await t.store.enqueueEffect({ key, kind: 'reply', contactKey: KEY, payload: reply(text) });
    t.ctx.clean.add(key);
  }
}

describe('the outbox runs a contact’s effects in order; transient errors back off, permanent ones park', () => {
  it('a transient fault holds the effect and the ones after it, and wakes the contact at its retry time', async () => {
    const t = withFailures(new ServerError(site));
    await enqueueReplies(t, 'one', 'two');
    expect(await runPendingEffects(t.ctx, KEY, t.escalations)).toBe(false);
    const first = await t.store.getEffect('9001:1:reply');
    expect(first).toMatchObject({ status: 'pending', attempts: 1 });
    expect(first?.retryAt).toBe(t.ctx.now() + 1000);
    // A 503 may have taken effect: marked so that the next try looks first.
    expect(first?.lastError).toMatch(/^outcome unknown: /);
    expect(t.sent).toEqual([]);
    expect(t.woken).toContainEqual({ key: KEY, atMs: first?.retryAt });
    // Not yet due: nothing is tried.
    expect(await runPendingEffects(t.ctx, KEY, t.escalations)).toBe(false);
    expect(t.calls.filter((c) => c.what === 'publisher.add')).toHaveLength(1);
    t.setNow(first?.retryAt as number);
    await botOwns(t.store, KEY, t.ctx.now());
    expect(await runPendingEffects(t.ctx, KEY, t.escalations)).toBe(true);
    expect(t.sent).toEqual(['one', 'two']);
    expect(t.calls.some((c) => c.what === 'publisherMentions.listPages')).toBe(true);
  });

  it('backs off longer after each transient failure, up to a minute, and parks after a bounded number of tries', async () => {
    const t = withFailures(...Array.from({ length: 100 }, () => new ServerError(site)));
    await enqueueReplies(t, 'one');
    const waits: number[] = [];
    for (let round = 0; round < 100; round++) {
      const before = t.ctx.now();
      await runPendingEffects(t.ctx, KEY, t.escalations);
      const effect = await t.store.getEffect('9001:1:reply');
      if (effect?.status !== 'pending') break;
      waits.push((effect.retryAt as number) - before);
      t.setNow(effect.retryAt as number);
      await botOwns(t.store, KEY, t.ctx.now());
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000, 60000, 60000]);
    const effect = await t.store.getEffect('9001:1:reply');
    expect(effect).toMatchObject({ status: 'failed', attempts: MAX_EFFECT_ATTEMPTS });
    expect(t.calls.filter((c) => c.what === 'publisher.add')).toHaveLength(MAX_EFFECT_ATTEMPTS);
    expect(await t.metric('engage_bridge_effects_dead_total')).toBe(1);
    expect((await deadEffects(t.store)).latest[0]).toMatchObject({ key: '9001:1:reply', kind: 'reply', contactKey: KEY });
  });

  it('a reply nobody can tell went out is given up to people with a note, never sent a second time (issue 26)', async () => {
    const t = effectTestContext({
      publisherMentions: {
        get: () => ({ id: 'pm-x' }),
        // A busy account: every page of published history leads to another, past the re-check's bound.
        listPages: async function* () {
          for (let i = 0; i < 50; i++) yield { data: [], paging: { next_url: `https://x/page/${i + 1}` } };
        },
      },
    });
    const doubts: string[] = [];
    const escalations = { ...t.escalations, replyInDoubt: async (key: string) => void doubts.push(key) };
    await botOwns(t.store, KEY, t.ctx.now());
    await t.store.enqueueEffect({ key: '9001:1:reply', kind: 'reply', contactKey: KEY, payload: reply('one') });
    for (let round = 0; round < 20; round++) {
      await runPendingEffects(t.ctx, KEY, escalations);
      const effect = await t.store.getEffect('9001:1:reply');
      if (effect?.status !== 'pending') break;
      t.setNow(effect.retryAt as number);
      await botOwns(t.store, KEY, t.ctx.now());
    }
    expect((await t.store.getEffect('9001:1:reply'))?.status).toBe('failed');
    expect(t.calls.filter((c) => c.what === 'publisher.add')).toHaveLength(0);
    expect(doubts).toEqual([KEY]);
  });

  it('a permanent refusal parks the effect at once and the effects after it go on', async () => {
    const refused = new InvalidParameterError({ ...site, status: 400, serviceError: 'invalid_parameter' });
    const t = withFailures(refused);
    await enqueueReplies(t, 'one', 'two');
    expect(await runPendingEffects(t.ctx, KEY, t.escalations)).toBe(true);
    expect((await t.store.getEffect('9001:1:reply'))?.status).toBe('failed');
    expect((await t.store.getEffect('9001:2:reply'))?.status).toBe('done');
    expect(t.sent).toEqual(['two']);
    expect(await t.metric('engage_bridge_effects_dead_total')).toBe(1);
    expect((await t.store.listAudit({ limit: 10 })).some((a) => a.action === 'gave up reply' && a.result === 'failed')).toBe(true);
  });

  it('a rate limit waits as long as the service asks and is not taken as a possibly sent call', async () => {
    const t = withFailures(new RateLimitError({ ...site, status: 429 }, 7_000));
    await enqueueReplies(t, 'one');
    expect(await runPendingEffects(t.ctx, KEY, t.escalations)).toBe(false);
    const effect = await t.store.getEffect('9001:1:reply');
    expect(effect?.retryAt).toBe(t.ctx.now() + 7_000);
    expect(effect?.lastError).not.toMatch(/^outcome unknown/);
  });

  it('a refused token stops every effect but decisions until it works again, and tells the managers once', async () => {
    const t = withFailures(new AuthError({ ...site, status: 401, serviceError: 'unauthorized' }));
    let told = 0;
    (t.ctx.notifier as { tokenRevoked: () => void }).tokenRevoked = () => told++;
    await enqueueReplies(t, 'one');
    await runPendingEffects(t.ctx, KEY, t.escalations);
    expect(t.ctx.health.revoked).toBe(true);
    expect(told).toBe(1);
    t.setNow(t.ctx.now() + 60_000);
    await botOwns(t.store, KEY, t.ctx.now());
    await t.store.enqueueEffect({ key: '9002:decision', kind: 'decision', contactKey: KEY, payload: { kind: 'decision' } });
    expect(await runPendingEffects(t.ctx, KEY, t.escalations)).toBe(false);
    expect(t.sent).toEqual([]);
    expect(t.calls.filter((c) => c.what === 'publisher.add')).toHaveLength(1);
  });

  it('a handover that can never go through is parked and the brain is told, so the customer is not left waiting', async () => {
    const t = effectTestContext({
      handover: {
        toAgents: () => {
          throw new InvalidParameterError({ ...site, status: 400, serviceError: 'invalid_parameter' });
        },
      },
    });
    await botOwns(t.store, KEY, t.ctx.now());
    await t.store.enqueueEffect({ key: '9001:1:escalate', kind: 'escalate', contactKey: KEY, payload: escalatePayload() });
    expect(await runPendingEffects(t.ctx, KEY, t.escalations)).toBe(true);
    expect((await t.store.getEffect('9001:1:escalate'))?.status).toBe('failed');
    expect(t.failedEscalations).toHaveLength(1);
    expect(t.failedEscalations[0]?.key).toBe(KEY);
    expect(t.notices).toEqual([]);
    expect((await t.store.getConversation(KEY))?.owner).toBe('bot');
  });

  it('a reply asked for later waits without holding up the effects after it', async () => {
    const t = withFailures();
    await botOwns(t.store, KEY, t.ctx.now());
    const later = t.ctx.now() + 5 * 60_000;
    await t.store.enqueueEffect({ key: '9001:1:reply', kind: 'reply', contactKey: KEY, payload: reply('survey', { notBefore: later }) });
    await t.store.enqueueEffect({ key: '9001:2:reply', kind: 'reply', contactKey: KEY, payload: reply('now') });
    t.ctx.clean.add('9001:1:reply');
    t.ctx.clean.add('9001:2:reply');
    expect(await runPendingEffects(t.ctx, KEY, t.escalations)).toBe(true);
    expect(t.sent).toEqual(['now']);
    expect(t.woken).toContainEqual({ key: KEY, atMs: later });
    t.setNow(later);
    await botOwns(t.store, KEY, t.ctx.now());
    await runPendingEffects(t.ctx, KEY, t.escalations);
    expect(t.sent).toEqual(['now', 'survey']);
  });
});
