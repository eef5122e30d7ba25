import type { Store } from '../storage/index.js';
import { splitKey, slashForm } from './contact-key.js';
import type { EscalationNotice } from './notifier.js';

/** One escalation record per contact while it is open or queued: a queued one is updated when it opens. */
export async function recordEscalation(
  store: Store,
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
  const existing = await store.listEscalations({ contactKey: key, status: ['open', 'queued'] });
  const same = existing.find((x) => x.status === e.status || x.status === 'queued');
  if (same) {
    return store.updateEscalation(same.id, {
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
  return store.openEscalation({
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

/** The managers' notice of an escalation (Slack), from the escalation and its packet. */
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
