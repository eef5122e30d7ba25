import { describe, expect, it } from 'vitest';
import { MAX_EFFECT_ATTEMPTS, RecheckIncompleteError, judgeEffectError } from '../../../src/bridge/effects/effect-errors.js';
import { runPendingEffects } from '../../../src/bridge/effects/outbox-runner.js';
import { describeHealth } from '../../../src/commands/status-command.js';
import { InvalidParameterError, RateLimitError, ServerError } from '../../../src/engage/index.js';
import { TARGET, botOwns, effectTestContext } from './effect-test-context.js';

const site = { method: 'POST', path: '/1001/publisher/add', status: 503, serviceError: 'server_error', description: 'down' };
const KEY = 'whatsapp:32470000501';

describe('every effect retry is bounded; what cannot go through is parked as dead', () => {
  it('retries a service fault, a rate limit and an unknown error only a bounded number of times', () => {
    for (const err of [new ServerError(site), new RateLimitError(site, 1000)]) {
      let attempts = 0;
      while (judgeEffectError(err, attempts, 0).kind === 'retry') {
        attempts++;
        expect(attempts).toBeLessThan(100);
      }
      expect(attempts + 1).toBe(MAX_EFFECT_ATTEMPTS);
    }
  });

  it('takes the first step after a passing fault of the service only; other troubles keep the growing step', () => {
    const at = (err: unknown, attempts: number) => {
      const v = judgeEffectError(err, attempts, 0, true);
      return v.kind === 'retry' ? v.retryAt : v.kind;
    };
    expect(at(new ServerError(site), 3)).toBe(1000);
    // The re-check of a reply hit its bounds (a busy topic), or a trouble of the bridge: this effect's own, not luck.
    expect(at(new RecheckIncompleteError('too many pages'), 3)).toBe(8000);
    expect(at(new Error('the disk is full'), 2)).toBe(4000);
  });

  it('gives up at once on a refusal by the service', () => {
    expect(judgeEffectError(new InvalidParameterError({ ...site, status: 400 }), 0, 0).kind).toBe('give-up');
  });

  it('parks a reply whose retries are used up as dead: audited, counted and listed by status', async () => {
    const t = effectTestContext({
      publisher: {
        add: () => {
          throw new ServerError(site);
        },
      },
      publisherMentions: { listPages: async function* () {} },
    });
    const audited: Array<{ action: string; subject: string }> = [];
    const audit = t.store.audit.bind(t.store);
    t.store.audit = async (entry) => {
      audited.push(entry);
      return audit(entry);
    };
    await botOwns(t.store, KEY, t.ctx.now());
    await t.store.enqueueEffect({
      key: '9001:1:reply',
      kind: 'reply',
      contactKey: KEY,
      payload: { kind: 'reply', target: TARGET, text: 'Hi' },
    });
    for (let round = 0; round < 50; round++) {
      const effect = await t.store.getEffect('9001:1:reply');
      if (effect?.status !== 'pending') break;
      t.setNow(Math.max(t.ctx.now(), effect.retryAt ?? 0) + 1);
      await botOwns(t.store, KEY, t.ctx.now());
      await runPendingEffects(t.ctx, KEY, t.escalations);
    }
    const effect = await t.store.getEffect('9001:1:reply');
    expect(effect?.status).toBe('failed');
    expect(effect?.attempts).toBe(MAX_EFFECT_ATTEMPTS);
    expect(await t.metric('engage_bridge_effects_dead_total')).toBe(1);
    expect(audited.some((a) => a.action === 'gave up reply' && a.subject === KEY)).toBe(true);
    const health = await t.store.getMeta();
    const text = describeHealth(
      {
        ingestionLagMs: 0,
        conversationsByOwner: {},
        apiBudgetRemaining: null,
        botPausedForAll: false,
        deadEffects: health.values['deadEffects'] as never,
      },
      t.ctx.now(),
    );
    expect(text).toMatch(/Dead items \(given up, not retried\): 1/);
    expect(text).toContain('reply for whatsapp/32470000501');
  });
});

// Chaos run of 21:42 on 2026-11-23: one reply failed five times in a row (503, rate limit, 503, cut JSON, reset)
// while hundreds of others went out; its backoff grew to 16 s and its customer waited 67 s. An effect that fails
// while others of its kind and channel go through met a passing fault: it is tried again after the first step.
describe('an effect that fails while others of its kind and channel go through is tried again soon', () => {
  const UNLUCKY = 'whatsapp:32470000501';
  const LUCKY = 'whatsapp:32470000502';
  const FAILING = 'whatsapp:32470000503';
  const HELD = 'whatsapp:32470000504';
  const ELSEWHERE = 'web:visitor-7';

  /** The unlucky contact's reply, and every reply to FAILING, meets a fault; the others go through. */
  async function world() {
    const failing = new Set(['9001']);
    const t = effectTestContext({
      publisher: {
        add: (r: { mentionId: string }) => {
          if (failing.has(r.mentionId)) throw new ServerError(site);
          return { messages: [{ id: `msg-${r.mentionId}` }], publisher_mention: { id: `pm-${r.mentionId}` } };
        },
      },
    });
    for (const key of [UNLUCKY, LUCKY, FAILING, ELSEWHERE]) await botOwns(t.store, key, t.ctx.now());
    await t.store.saveConversation({
      key: HELD,
      channel: 'whatsapp',
      serviceId: '32470000504',
      owner: 'agents',
      ownerConfirmedAt: t.ctx.now(),
      transcript: [],
      updatedAt: t.ctx.now(),
    });
    await t.store.enqueueEffect({
      key: '9001:1:reply',
      kind: 'reply',
      contactKey: UNLUCKY,
      payload: { kind: 'reply', target: TARGET, text: 'Hi' },
    });
    let next = 9100;
    /** Another contact's reply, performed now (through, failed or skipped, as that contact goes). */
    const replyOf = async (key: string) => {
      const mentionId = String(++next);
      if (key === FAILING) failing.add(mentionId);
      await t.store.enqueueEffect({
        key: `${mentionId}:1:reply`,
        kind: 'reply',
        contactKey: key,
        payload: { kind: 'reply', target: { topicId: '2001', mentionId }, text: 'Hello' },
      });
      if (key !== HELD) await botOwns(t.store, key, t.ctx.now());
      await runPendingEffects(t.ctx, key, t.escalations);
    };
    const replies =
      (...keys: string[]) =>
      async () => {
        for (const key of keys) await replyOf(key);
      };
    /** Moves to the unlucky reply's next try, lets `between` happen first, tries it; returns the wait it was given. */
    const tryUnlucky = async (between: () => Promise<void>) => {
      const before = await t.store.getEffect('9001:1:reply');
      t.setNow(Math.max(t.ctx.now(), before?.retryAt ?? 0) + 1);
      await between();
      await botOwns(t.store, UNLUCKY, t.ctx.now());
      await runPendingEffects(t.ctx, UNLUCKY, t.escalations);
      const after = await t.store.getEffect('9001:1:reply');
      return (after?.retryAt ?? 0) - t.ctx.now();
    };
    return { t, replies, tryUnlucky };
  }

  it('waits the first step for six tries while other WhatsApp replies go out, then the long schedule, and is bounded', async () => {
    const { t, replies, tryUnlucky } = await world();
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) waits.push(await tryUnlucky(replies(LUCKY, LUCKY, LUCKY)));
    // A fault of its own at the service (it fails and fails while the others go out) still gets minutes of tries.
    expect(waits).toEqual([1000, 1000, 1000, 1000, 1000, 1000, 60_000, 60_000]);
    for (let i = 0; i < 10; i++) await tryUnlucky(replies(LUCKY, LUCKY, LUCKY));
    const effect = await t.store.getEffect('9001:1:reply');
    expect(effect?.status).toBe('failed');
    expect(effect?.attempts).toBe(MAX_EFFECT_ATTEMPTS);
  });

  it('backs off as before when nothing of its kind goes out on its channel: an outage, not bad luck', async () => {
    const { tryUnlucky, replies } = await world();
    const waits: number[] = [];
    waits.push(await tryUnlucky(async () => undefined));
    waits.push(await tryUnlucky(async () => undefined));
    // Live chat replies going out say nothing of WhatsApp; a WhatsApp reply skipped (people hold its contact) made no call.
    waits.push(await tryUnlucky(replies(ELSEWHERE, ELSEWHERE, ELSEWHERE)));
    waits.push(await tryUnlucky(replies(HELD, HELD, HELD)));
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
  });

  it('backs off as before when the service struggles: some replies go out, but more than one in five fail', async () => {
    const { tryUnlucky, replies } = await world();
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) waits.push(await tryUnlucky(replies(LUCKY, FAILING, LUCKY, FAILING, LUCKY)));
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
  });
});
