import { describe, expect, it } from 'vitest';
import { MAX_EFFECT_ATTEMPTS, judgeEffectError } from '../../src/bridge/effect-errors.js';
import { runPendingEffects } from '../../src/bridge/outbox-runner.js';
import { describeHealth } from '../../src/commands/status-command.js';
import { InvalidParameterError, RateLimitError, ServerError } from '../../src/engage/index.js';
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
