import { describe, expect, it } from 'vitest';
import { runPendingEffects } from '../../../src/bridge/effects/outbox-runner.js';
import { PERFORMERS, performEffect } from '../../../src/bridge/effects/perform-effect.js';
import type { Performers } from '../../../src/bridge/effects/performer.js';
import { InvalidParameterError } from '../../../src/engage/index.js';
import { TARGET, botOwns, effectTestContext, escalatePayload } from '../effects/effect-test-context.js';

const KEY = 'whatsapp:32470000701';
const site = { method: 'POST', path: '/1001/publisher/add', status: 400, serviceError: 'invalid_parameter', description: 'bad' };

async function run(t: ReturnType<typeof effectTestContext>, key: string, payload: { kind: string } & Record<string, unknown>) {
  await t.store.enqueueEffect({ key, kind: payload.kind, contactKey: KEY, payload });
  t.ctx.clean.add(key);
  await runPendingEffects(t.ctx, KEY, t.escalations);
  return t.store.getEffect(key);
}

const survey = (part: 'record' | 'tags', tagContact = true) => ({
  kind: 'survey-answer',
  part,
  target: TARGET,
  answer: { kind: 'csat', score: 5, reason: 'fast', channel: 'whatsapp', tags: ['csat-5'], tagContact },
});

describe('each performer does its one step against the service and records what came of it', () => {
  it('reply: publishes from the services the service lists for the mention and keeps the publisher mention id', async () => {
    const t = effectTestContext();
    await botOwns(t.store, KEY, t.ctx.now());
    const done = await run(t, '9001:1:reply', { kind: 'reply', target: TARGET, text: 'Hello', cannedResponseId: 'cr-1' });
    expect(done?.result).toMatchObject({ publisherMentionId: 'pm-1', messageIds: ['msg-1'] });
    const add = t.calls.find((c) => c.what === 'publisher.add')?.args as [Record<string, unknown>];
    expect(add[0]).toMatchObject({
      type: 'reply',
      message: 'Hello',
      topicId: TARGET.topicId,
      mentionId: TARGET.mentionId,
      cannedResponseId: 'cr-1',
      services: [{ type: 'whatsapp', service_id: '3225550100' }],
    });
  });

  it('reply: says nothing when people own the contact, and records why', async () => {
    const t = effectTestContext({ handover: { get: () => ({ owner: 'agents', date: { updated: 5 } }) } });
    const done = await run(t, '9001:1:reply', { kind: 'reply', target: TARGET, text: 'Hello' });
    expect(done).toMatchObject({ status: 'done', result: { skipped: 'the bot does not own the contact' } });
    expect(t.calls.some((c) => c.what === 'publisher.add')).toBe(false);
  });

  it("reply: not sent once the channel's 24-hour customer-service window has closed (decided before, sent late)", async () => {
    const t = effectTestContext();
    const now = t.ctx.now();
    await t.store.saveConversation({
      key: KEY,
      channel: 'whatsapp',
      serviceId: '32470000701',
      owner: 'bot',
      ownerConfirmedAt: now,
      transcript: [],
      updatedAt: now,
      lastInboundAt: now - 25 * 3_600_000,
    });
    (t.ctx.engage as unknown as { serviceNowMs: () => number }).serviceNowMs = () => now;
    const done = await run(t, '9001:1:reply', { kind: 'reply', target: TARGET, text: 'How did we do?' });
    expect(done).toMatchObject({ status: 'done', result: { skipped: "the channel's customer-service window is closed" } });
    expect(t.calls.some((c) => c.what === 'publisher.add')).toBe(false);
  });

  it('reply: a refusal asks for the services again and sends once more only when they changed', async () => {
    let listed = 0;
    let sent = 0;
    const t = effectTestContext({
      publisher: {
        services: () => ({ profiles: [], services: [{ type: 'whatsapp', service_id: listed++ === 0 ? 'old' : 'new' }] }),
        add: () => {
          if (sent++ === 0) throw new InvalidParameterError(site);
          return { messages: [{ id: 'msg-2' }], publisher_mention: { id: 'pm-2' } };
        },
      },
    });
    await botOwns(t.store, KEY, t.ctx.now());
    const done = await run(t, '9001:1:reply', { kind: 'reply', target: TARGET, text: 'Hello' });
    expect(done?.status).toBe('done');
    const adds = t.calls.filter((c) => c.what === 'publisher.add').map((c) => (c.args as [{ services: unknown }])[0].services);
    expect(adds).toEqual([[{ type: 'whatsapp', service_id: 'old' }], [{ type: 'whatsapp', service_id: 'new' }]]);
  });

  it('handover: hands the contact to people first, then tags and notes the mention, then sends the notice', async () => {
    const t = effectTestContext();
    await botOwns(t.store, KEY, t.ctx.now());
    const done = await run(t, '9001:1:escalate', escalatePayload('VIP wants a person'));
    expect(t.calls.map((c) => c.what)).toEqual(['handover.toAgents', 'mentions.update', 'mentions.update']);
    expect(t.calls[2]?.args as unknown[]).toEqual([expect.anything(), { actions: [{ type: 'note', extra: 'VIP wants a person' }] }]);
    expect((await t.store.getConversation(KEY))?.owner).toBe('agents');
    const [escalation] = await t.store.listEscalations({ contactKey: KEY });
    expect(escalation).toMatchObject({ status: 'open', reason: 'explicit', priority: 'high', mentionId: TARGET.mentionId });
    expect(done?.result).toEqual({ escalationId: escalation?.id, tagged: true, noted: true });
    expect(t.notices).toHaveLength(1);
    expect(t.notices[0]).toMatchObject({
      escalationId: escalation?.id,
      contactKey: 'whatsapp/32470000701',
      reason: 'explicit: “a human please”',
    });
  });

  it('note: a note that may already be on the mention after a crash is looked for before it is added again', async () => {
    const t = effectTestContext({
      mentions: { get: () => ({ id: TARGET.mentionId, topic_id: TARGET.topicId, actions: [{ type: 'note', extra: 'Already there' }] }) },
    });
    await botOwns(t.store, KEY, t.ctx.now());
    await t.store.enqueueEffect({ key: '9001:1:escalate', kind: 'escalate', contactKey: KEY, payload: escalatePayload('Already there') });
    // A new process: the effect is not known clean, so it may have been in flight.
    await runPendingEffects(t.ctx, KEY, t.escalations);
    expect(t.calls.map((c) => c.what)).toEqual(['handover.toAgents', 'mentions.update', 'mentions.get']);
    expect(t.notices).toHaveLength(1);
  });

  it('notice: a queued escalation is recorded for opening time without a handover or a notice', async () => {
    const t = effectTestContext();
    await botOwns(t.store, KEY, t.ctx.now());
    const releaseAt = t.ctx.now() + 3_600_000;
    await run(t, '9001:1:queue-escalation', { kind: 'queue-escalation', target: TARGET, reason: 'after-hours', releaseAt });
    expect(t.calls).toEqual([]);
    expect(t.notices).toEqual([]);
    const [queued] = await t.store.listEscalations({ contactKey: KEY });
    expect(queued).toMatchObject({ status: 'queued', reason: 'after-hours', priority: 'medium' });
    // The same escalation goes to the people later: one record, now open.
    await run(t, '9002:1:escalate', escalatePayload());
    const all = await t.store.listEscalations({ contactKey: KEY });
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: queued?.id, status: 'open' });
  });

  it('cancel: the customer calls off an open escalation: it is cancelled, the notice updated and the bot takes the contact back', async () => {
    const t = effectTestContext();
    const updated: string[] = [];
    (t.ctx.notifier as { noticeUpdated: (id: string, text: string) => void }).noticeUpdated = (id) => updated.push(id);
    await botOwns(t.store, KEY, t.ctx.now());
    await run(t, '9001:1:escalate', escalatePayload());
    const [open] = await t.store.listEscalations({ contactKey: KEY });
    const done = await run(t, '9002:1:cancel-escalation', { kind: 'cancel-escalation', reason: 'never mind' });
    expect(done?.result).toEqual({ cancelled: 1 });
    expect(updated).toEqual([open?.id]);
    expect((await t.store.listEscalations({ contactKey: KEY }))[0]?.status).toBe('cancelled');
    expect((await t.store.getConversation(KEY))?.owner).toBe('bot');
    expect(t.calls.filter((c) => c.what === 'handover.toApplication')).toHaveLength(1);
  });

  it('survey answer: recorded in the audit log and counted, with no call to the service', async () => {
    const t = effectTestContext();
    const done = await run(t, '9001:1:survey-answer', survey('record'));
    expect(done?.result).toEqual({ recorded: true });
    expect(t.calls).toEqual([]);
    const [entry] = await t.store.listAudit({ limit: 5 });
    expect(entry).toMatchObject({ actor: 'customer', subject: KEY });
    expect(JSON.parse(entry?.result as string)).toEqual({ kind: 'csat', score: 5, reason: 'fast', channel: 'whatsapp' });
  });

  it('survey answer: tags the mention and the contact, adding to what is there', async () => {
    const t = effectTestContext();
    (t.ctx.engage as unknown as { contacts: { update: (...a: unknown[]) => unknown } }).contacts = {
      update: (...args: unknown[]) => {
        t.calls.push({ what: 'contacts.update', args });
        return Promise.resolve({});
      },
    };
    const done = await run(t, '9001:1:survey-answer:tags', survey('tags'));
    expect(done?.result).toEqual({ tagged: true });
    expect(t.calls.map((c) => c.what)).toEqual(['mentions.update', 'contacts.update']);
    expect(t.calls[0]?.args).toEqual([expect.anything(), { tags: ['csat-5'] }, { options: { tags_edit_mode: 'add' } }]);
  });
});

describe('the effect runner takes its performer from a table by kind', () => {
  it('hands each effect to the performer of its kind, with the explicit dependencies and the suspect flag', async () => {
    const t = effectTestContext();
    const seen: string[] = [];
    const table = Object.fromEntries(
      Object.keys(PERFORMERS).map((kind) => [
        kind,
        async (deps: unknown, effect: { key: string }, _p: unknown, suspect: boolean) => {
          expect(deps).toBe(t.ctx.performerDeps);
          seen.push(`${kind}:${effect.key}:${suspect}`);
          return { by: kind };
        },
      ]),
    ) as unknown as Performers;
    const effect = (kind: string) => ({ key: `k-${kind}`, kind, contactKey: KEY, payload: { kind } }) as never;
    expect(await performEffect(t.ctx.performerDeps, effect('reply'), true, table)).toEqual({ by: 'reply' });
    expect(await performEffect(t.ctx.performerDeps, effect('escalate'), false, table)).toEqual({ by: 'escalate' });
    expect(seen).toEqual(['reply:k-reply:true', 'escalate:k-escalate:false']);
  });

  it('has a performer for every kind of effect a decision plans', () => {
    expect(Object.keys(PERFORMERS).sort()).toEqual(
      ['cancel-escalation', 'decision', 'escalate', 'queue-escalation', 'reply', 'survey-answer'].sort(),
    );
  });

  it('an effect of a kind this version does not know is finished with nothing done, not retried', async () => {
    const t = effectTestContext();
    const done = await run(t, 'x:1:future', { kind: 'future-kind' });
    expect(done?.status).toBe('done');
    expect(t.calls).toEqual([]);
  });
});
