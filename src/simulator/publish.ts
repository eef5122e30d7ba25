import type { Button, CannedResponse, MentionRecord, PublisherMention } from './model.js';
import { addMention } from './new-mention.js';
import type { Runtime } from './runtime.js';
import { threadKey } from './mention-index.js';

export type PublishStatus = '' | 'draft' | 'awaitingapproval';

export interface PublishInput {
  type: string;
  services: { type: string; service_id: string }[];
  message: string;
  subject: string | null;
  to: { id: string }[];
  media: string[];
  status: PublishStatus;
  publishAt: number;
  mention: MentionRecord | null;
  canned: CannedResponse | null;
  userId: string;
  /** `bot`: published through the API; `agent`: written by an agent in the service's tool. */
  author: 'bot' | 'agent';
}

export interface MessageItem {
  id: string;
  service: string;
  service_id: string;
  status: 'sent' | 'queued';
}

/** Creates the publisher mention, logs the outbound message and, when it goes out now, delivers it. */
export function publish(rt: Runtime, input: PublishInput): { messages: MessageItem[]; publisherMention: PublisherMention } {
  const { state } = rt;
  const now = rt.now();
  const buttons: Button[] = input.canned?.type === 'buttons' ? input.canned.buttons.map((b) => ({ ...b })) : [];
  if (input.canned) input.canned.usageCount += 1;
  const direct = input.status === '';
  const pm: PublisherMention = {
    id: state.newId('publisher'),
    type: input.type,
    status: direct ? (input.publishAt > now ? 'scheduled' : 'posted') : input.status === 'draft' ? 'draft' : 'awaitingapproval',
    services: input.services.map((s) => ({ ...s })),
    message: input.message,
    subject: input.subject,
    to: input.to,
    media: input.media,
    buttons,
    cannedResponseId: input.canned?.id ?? null,
    topicId: input.mention?.topicId ?? null,
    mentionId: input.mention?.id ?? null,
    publishAt: input.publishAt,
    added: now,
    tags: [],
    actions: [],
    assignment: { userIds: [], comment: '' },
    authorUserId: input.userId,
  };
  state.publisherMentions.set(pm.id, pm);
  if (pm.status === 'scheduled') state.scheduled.add(pm.id);
  const sent = pm.status === 'posted';
  const messages = pm.services.map((s) => ({
    id: `msg-${state.newId('message')}`,
    service: s.type,
    service_id: s.service_id,
    status: sent ? ('sent' as const) : ('queued' as const),
  }));
  const recipient = input.mention ? { channel: input.mention.service, service_id: input.mention.threadId } : null;
  rt.outbound.append({
    type: pm.type,
    services: pm.services,
    message: pm.message,
    canned_response_id: pm.cannedResponseId,
    buttons,
    topic_id: pm.topicId,
    mention_id: pm.mentionId,
    status: pm.status,
    date: now,
    publisher_mention_id: pm.id,
    author: input.author,
    user_id: input.author === 'agent' ? input.userId : null,
    recipient,
  });
  if (sent) deliver(rt, pm);
  return { messages, publisherMention: pm };
}

/**
 * What a sent message does in the inbox: it appears as a mention written by the account
 * (`author.managed = true`) in the conversation, and its quick replies become the customer's choices.
 */
export function deliver(rt: Runtime, pm: PublisherMention): void {
  const { state } = rt;
  pm.status = 'posted';
  state.scheduled.delete(pm.id);
  const target = pm.mentionId ? state.mentions.get(pm.mentionId, pm.topicId) : undefined;
  const service = target?.service ?? pm.services[0]?.type ?? 'web';
  const profile = state.profileFor(service);
  const user = state.users.get(pm.authorUserId);
  const threadId = target?.threadId ?? '';
  addMention(rt, {
    topicId: target?.topicId ?? pm.topicId ?? [...state.topics.keys()][0] ?? 0,
    service,
    authorId: profile.service_id,
    // Guess `echo_author_anonymous`: the message is shown as the stream's, not the publishing user's.
    authorName: rt.realism.echo_author_anonymous ? profile.name : (user?.name ?? profile.name),
    managed: true,
    threadId,
    content: pm.message,
    buttons: pm.buttons,
  });
  if (target && pm.buttons.length > 0) state.lastQuickReplies.set(threadKey(service, threadId), pm.buttons);
}

/** Scheduled posts whose time has come are published when next looked at. */
export function publishDue(rt: Runtime): void {
  const now = rt.now();
  for (const id of rt.state.scheduled) {
    const pm = rt.state.publisherMentions.get(id);
    if (pm?.status !== 'scheduled') rt.state.scheduled.delete(id);
    else if (pm.publishAt <= now) deliver(rt, pm);
  }
}
