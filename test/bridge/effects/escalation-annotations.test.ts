import { describe, expect, it } from 'vitest';
import { InvalidParameterError } from '../../../src/engage/index.js';
import { runPendingEffects } from '../../../src/bridge/effects/outbox-runner.js';
import { botOwns, effectTestContext, escalatePayload } from './effect-test-context.js';

const KEY = 'whatsapp:32470000201';
const refusal = (what: string) =>
  new InvalidParameterError({
    method: 'POST',
    path: '/1001/inbox/mention/2001/9001',
    status: 400,
    serviceError: 'invalid_parameter',
    description: what,
  });

async function escalate(t: ReturnType<typeof effectTestContext>) {
  await botOwns(t.store, KEY, t.ctx.now());
  await t.store.enqueueEffect({ key: '9001:2:escalate', kind: 'escalate', contactKey: KEY, payload: escalatePayload() });
  t.ctx.clean.add('9001:2:escalate');
  await runPendingEffects(t.ctx, KEY, t.escalations);
  return t.store.getEffect('9001:2:escalate');
}

describe('an escalation hands over first and annotates after', () => {
  it('posts the handover before anything is written on the mention', async () => {
    const t = effectTestContext();
    const effect = await escalate(t);
    expect(effect?.status).toBe('done');
    const order = t.calls.map((c) => c.what).filter((w) => w === 'handover.toAgents' || w === 'mentions.update');
    expect(order[0]).toBe('handover.toAgents');
    expect(order.length).toBeGreaterThan(1);
  });

  it('sends only keys the description lists as updatable: tags, never priority', async () => {
    const t = effectTestContext();
    await escalate(t);
    const updates = t.calls.filter((c) => c.what === 'mentions.update').map((c) => (c.args as unknown[])[1] as Record<string, unknown>);
    for (const u of updates) expect(Object.keys(u)).not.toContain('priority');
    expect(updates.some((u) => JSON.stringify(u.tags) === '["bot-escalated"]')).toBe(true);
  });

  it('keeps the handover when the note is refused: logged, counted and put in the Slack notice', async () => {
    const t = effectTestContext({
      mentions: {
        update: (_ref: unknown, updates: Record<string, unknown>) => {
          if ('actions' in updates) throw refusal("Unknown update key 'actions'");
          return { id: '9001', topic_id: '2001' };
        },
      },
    });
    const effect = await escalate(t);
    expect(effect?.status).toBe('done');
    expect(t.failedEscalations).toEqual([]);
    expect((await t.store.getConversation(KEY))?.owner).toBe('agents');
    expect(await t.store.listEscalations({ contactKey: KEY, status: ['open'] })).toHaveLength(1);
    expect(await t.metric('engage_bridge_escalation_annotations_refused_total')).toBe(1);
    expect(t.notices).toHaveLength(1);
    expect(t.notices[0]!.summary).toContain('Customer asked for a person.');
  });

  it('tries a refused note once and never again (a note is appended: a repeat could add it twice)', async () => {
    let noteTries = 0;
    const t = effectTestContext({
      mentions: {
        update: (_ref: unknown, updates: Record<string, unknown>) => {
          if ('actions' in updates) {
            noteTries++;
            throw refusal('no');
          }
          return { id: '9001', topic_id: '2001' };
        },
      },
    });
    await escalate(t);
    expect(noteTries).toBe(1);
  });
});
