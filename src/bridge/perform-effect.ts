import type { Effect } from '../storage/index.js';
import type { BridgeContext } from './bridge-context.js';
import type { EffectPayload } from './effect-payload.js';
import { annotateEscalation, summaryWithNote } from './escalation-annotations.js';
import { performReply } from './perform-reply.js';
import { applyDecision } from './run-brain.js';
import { splitKey, slashForm } from './contact-key.js';
import type { EscalationNotice } from './notifier.js';
import { SURVEY_ANSWER_ACTION } from './survey-answers.js';

/** Performs one outbox effect against the service; throws to let the outbox retry or give up. */
export async function performEffect(ctx: BridgeContext, effect: Effect, suspect: boolean): Promise<unknown> {
  const payload = effect.payload as EffectPayload;
  switch (payload.kind) {
    case 'decision':
      await applyDecision(ctx, effect.contactKey, payload.state, payload.botLines ?? [], payload.followUps ?? []);
      return { decided: true };
    case 'reply':
      return performReply(ctx, effect, payload, suspect);
    case 'escalate':
      return performEscalate(ctx, effect, payload, suspect);
    case 'queue-escalation':
      return performQueue(ctx, effect, payload);
    case 'cancel-escalation':
      return performCancel(ctx, effect, payload);
    case 'survey-answer':
      return payload.part === 'record'
        ? recordSurveyAnswer(ctx, effect.contactKey, payload)
        : tagSurveyAnswer(ctx, effect.contactKey, payload);
  }
}

/** Keeps the answer (an audit entry the `csat` command reads) and counts it; no API call, so nothing to retry. */
async function recordSurveyAnswer(ctx: BridgeContext, key: string, p: Extract<EffectPayload, { kind: 'survey-answer' }>) {
  const { kind, score, reason, channel } = p.answer;
  await ctx.store.audit({
    at: ctx.now(),
    actor: 'customer',
    action: SURVEY_ANSWER_ACTION,
    subject: key,
    result: JSON.stringify({ kind, score, reason, channel }),
  });
  ctx.metrics.surveyAnswers.inc({ kind, score: String(score), channel });
  return { recorded: true };
}

/** Tags the answered mention and the contact (adding, so nothing else is lost; a repeat adds nothing new). */
async function tagSurveyAnswer(ctx: BridgeContext, key: string, p: Extract<EffectPayload, { kind: 'survey-answer' }>) {
  const tags = [...p.answer.tags];
  if (tags.length === 0) return { tagged: false };
  await ctx.engage.mentions.update({ topicId: p.target.topicId, id: p.target.mentionId }, { tags }, { options: { tags_edit_mode: 'add' } });
  if (p.answer.tagContact) {
    const { service, serviceId } = splitKey(key);
    await ctx.engage.contacts.update(
      { service, serviceId },
      { tags },
      { options: { tags_edit_mode: 'add' }, topicIds: [p.target.topicId] },
    );
  }
  return { tagged: true };
}

async function performEscalate(ctx: BridgeContext, effect: Effect, p: Extract<EffectPayload, { kind: 'escalate' }>, suspect: boolean) {
  const key = effect.contactKey;
  const a = p.action;
  // The handover is the act: it goes first, and nothing written on the mention afterwards can undo or block it.
  await ctx.ownership.apply(key, { type: 'escalate' }, 'bot', a.reason);
  const escalation = await recordEscalation(ctx, key, {
    reason: a.reason,
    priority: a.priority,
    status: 'open',
    target: p.target,
    summary: a.packet.summary,
    ...(p.permalink ? { permalink: p.permalink } : {}),
  });
  const outcome = await annotateEscalation(ctx, key, { target: p.target, tags: a.tags, note: a.note }, suspect);
  ctx.metrics.escalations.inc({ reason: a.reason });
  ctx.notifier.escalated(
    noticeOf(
      escalation.id,
      key,
      p.customerName ?? a.packet.contactName,
      a.reason,
      a.packet.trigger,
      summaryWithNote(a.packet.summary, outcome),
      a.packet.transcript,
      p.permalink,
      ctx.now(),
    ),
  );
  return { escalationId: escalation.id, tagged: outcome.tagged, noted: outcome.noted };
}

async function performQueue(ctx: BridgeContext, effect: Effect, p: Extract<EffectPayload, { kind: 'queue-escalation' }>) {
  const escalation = await recordEscalation(ctx, effect.contactKey, {
    reason: p.reason,
    priority: 'medium',
    status: 'queued',
    target: p.target,
    summary: `queued for opening time${p.releaseAt ? ` (${new Date(p.releaseAt).toISOString()})` : ''}`,
    ...(p.permalink ? { permalink: p.permalink } : {}),
  });
  return { escalationId: escalation.id, queued: true };
}

async function performCancel(ctx: BridgeContext, effect: Effect, p: Extract<EffectPayload, { kind: 'cancel-escalation' }>) {
  const key = effect.contactKey;
  const open = await ctx.store.listEscalations({ contactKey: key, status: ['open', 'queued'] });
  for (const e of open) {
    await ctx.store.updateEscalation(e.id, { status: 'cancelled' });
    ctx.notifier.noticeUpdated(e.id, 'The customer called off the escalation before anyone took it.');
  }
  if (open.some((e) => e.status === 'open') && (await ctx.ownership.current(key)) === 'agents') {
    await ctx.ownership.apply(key, { type: 'return', by: 'cancelled' }, 'customer', p.reason);
    ctx.metrics.returnsToBot.inc({ reason: 'cancelled' });
  }
  return { cancelled: open.length };
}

async function recordEscalation(
  ctx: BridgeContext,
  key: string,
  e: {
    reason: string;
    priority: string;
    status: 'open' | 'queued';
    target: { mentionId: string; topicId: string };
    summary: string;
    permalink?: string;
  },
) {
  const existing = await ctx.store.listEscalations({ contactKey: key, status: ['open', 'queued'] });
  const same = existing.find((x) => x.status === e.status || x.status === 'queued');
  if (same) {
    return ctx.store.updateEscalation(same.id, {
      status: e.status,
      reason: e.reason,
      priority: e.priority,
      mentionId: e.target.mentionId,
      topicId: e.target.topicId,
      summary: e.summary,
      ...(e.permalink ? { permalink: e.permalink } : {}),
    });
  }
  const { channel, serviceId } = splitKey(key);
  return ctx.store.openEscalation({
    contactKey: key,
    channel,
    serviceId,
    reason: e.reason,
    priority: e.priority,
    status: e.status,
    mentionId: e.target.mentionId,
    topicId: e.target.topicId,
    summary: e.summary,
    ...(e.permalink ? { permalink: e.permalink } : {}),
  });
}

export function noticeOf(
  escalationId: string,
  key: string,
  name: string | undefined,
  reason: string,
  trigger: string,
  summary: string,
  transcript: ReadonlyArray<{ from: 'customer' | 'bot' | 'agent'; text: string; at: number }>,
  permalink: string | undefined,
  since: number,
): EscalationNotice {
  return {
    escalationId,
    contactKey: slashForm(key),
    customerName: name ?? splitKey(key).serviceId,
    channel: splitKey(key).channel,
    reason: trigger ? `${reason}: “${trigger}”` : reason,
    summary,
    transcript: transcript.map((l) => ({ from: l.from, text: l.text, at: l.at })),
    ...(permalink ? { permalink } : {}),
    since,
  };
}
