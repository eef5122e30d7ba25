import { z } from 'zod';
import { HANDOVER_SERVICES, presentHandover } from './routes/handover-routes.js';
import { threadKey } from './mention-index.js';
import type { Button, MentionRecord } from './model.js';
import { addMention } from './new-mention.js';
import { presentMention } from './present-mention.js';
import { publish } from './publish.js';
import type { Runtime } from './runtime.js';
import { invalidParameter, notFound } from './sim-error.js';

/** Channels a simulated customer can write on. */
export const CHANNELS = ['web', 'whatsapp', 'viber', 'twilio', 'wechat', 'facebook', 'instagram', 'twitter'] as const;
/** The version control answers are shaped with (the client's default). */
export const CONTROL_VERSION = 20210601;

const idText = z.union([z.string().min(1), z.number().int().nonnegative()]).transform(String);
const channel = z.enum(CHANNELS);

export const inboundSchema = z.strictObject({
  channel,
  author: z.strictObject({ id: idText, name: z.string().optional() }),
  text: z.string().optional(),
  clicked_button: z.string().min(1).optional(),
  topic_id: z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
  attachments: z
    .array(
      z.strictObject({
        type: z.enum(['image', 'video', 'audio', 'file']),
        url: z.url({ protocol: /^https?$/ }),
        question: z.string().min(1).optional(),
      }),
    )
    .max(10)
    .optional(),
});
export const agentReplySchema = z.strictObject({ channel, service_id: idText, text: z.string().min(1), user_id: idText.optional() });
export const agentResolveSchema = z.strictObject({ channel, service_id: idText });
export const handoverSchema = z.strictObject({ channel: z.string(), service_id: idText, owner: z.enum(['agents', 'application']) });

function customerMentions(rt: Runtime, service: string, serviceId: string): MentionRecord[] {
  return rt.state.mentions.thread(service, serviceId).filter((m) => !m.managed);
}

/** A customer writes (or taps a quick reply): the inbound private-message mention. */
export function simulateInbound(rt: Runtime, input: z.output<typeof inboundSchema>): Record<string, unknown> {
  const { state } = rt;
  const topicId = input.topic_id ?? [...state.topics.keys()][0] ?? 0;
  if (!state.topics.has(topicId)) throw invalidParameter(`Unknown topic '${topicId}'`);
  let clicked: Button[] = [];
  if (input.clicked_button !== undefined) {
    const offered = state.lastQuickReplies.get(threadKey(input.channel, input.author.id)) ?? [];
    const wanted = input.clicked_button.toLowerCase();
    const button = offered.find((b) => b.id === input.clicked_button || b.title.toLowerCase() === wanted);
    if (!button) throw invalidParameter(`No quick reply '${input.clicked_button}' was sent to this customer`);
    clicked = [{ ...button }];
  }
  const text = input.text ?? clicked[0]?.title;
  if (text === undefined || text === '') throw invalidParameter('Give text or clicked_button');
  const name = input.author.name ?? state.contactByService(input.channel, input.author.id)?.name ?? input.author.id;
  state.ensureContact(input.channel, input.author.id, name, rt.now());
  const m = addMention(rt, {
    topicId,
    service: input.channel,
    authorId: input.author.id,
    authorName: name,
    managed: false,
    threadId: input.author.id,
    content: text,
    clickedButtons: clicked,
    attachments: (input.attachments ?? []).map((a) => ({ type: a.type, url: a.url, question: a.question ?? null })),
  });
  rt.onInbound(m.id, m.topicId);
  return presentMention(rt, m, { version: CONTROL_VERSION });
}

/** The user an agent action is attributed to by default: the first user no API token belongs to. */
function defaultAgent(rt: Runtime): string {
  const tokenUsers = new Set([...rt.state.tokens.values()].map((t) => t.userId));
  const users = [...rt.state.users.keys()];
  return users.find((u) => !tokenUsers.has(u)) ?? users[0] ?? 'agent';
}

/** An agent answers in the service's own tool: a reply action on the latest mention, and the message goes out. */
export function simulateAgentReply(rt: Runtime, input: z.output<typeof agentReplySchema>): Record<string, unknown> {
  const latest = customerMentions(rt, input.channel, input.service_id).at(-1);
  if (!latest) throw notFound(`No mention from ${input.channel} customer '${input.service_id}'`);
  const userId = input.user_id ?? defaultAgent(rt);
  if (!rt.state.users.has(userId)) throw invalidParameter(`Unknown user '${userId}'`);
  const now = rt.now();
  latest.actions.push({ type: 'reply', user_id: userId, date: { added: now } });
  latest.updated = now;
  const profile = rt.state.profileFor(input.channel);
  const { publisherMention } = publish(rt, {
    type: 'reply',
    services: [{ type: profile.type, service_id: profile.service_id }],
    message: input.text,
    subject: null,
    to: [],
    media: [],
    status: '',
    publishAt: now,
    mention: latest,
    canned: null,
    userId,
    author: 'agent',
  });
  return { mention: presentMention(rt, latest, { version: CONTROL_VERSION }), publisher_mention_id: publisherMention.id };
}

/** An agent resolves the conversation: the customer's open mentions become `done`. */
export function simulateAgentResolve(rt: Runtime, input: z.output<typeof agentResolveSchema>): { resolved: number } {
  if (!rt.state.contactByService(input.channel, input.service_id)) throw notFound(`No ${input.channel} contact '${input.service_id}'`);
  let resolved = 0;
  for (const m of customerMentions(rt, input.channel, input.service_id)) {
    if (m.status !== 'done') {
      m.status = 'done';
      m.updated = rt.now();
      resolved += 1;
    }
  }
  return { resolved };
}

/** An agent takes or returns the contact in the service's tool. */
export function simulateHandover(rt: Runtime, input: z.output<typeof handoverSchema>): Record<string, unknown> {
  if (!HANDOVER_SERVICES.has(input.channel)) throw invalidParameter(`Handover is not supported for channel '${input.channel}'`);
  const { state } = rt;
  state.ensureContact(input.channel, input.service_id, input.service_id, rt.now());
  state.setHandover(input.channel, input.service_id, {
    owner: input.owner,
    applicationId: input.owner === 'application' ? state.application.id : null,
    updated: rt.now(),
  });
  return presentHandover(rt, input.channel, input.service_id, state.handover(input.channel, input.service_id));
}
