import { READ, WRITE, type ApiContext, type Route } from '../api-types.js';
import type { CannedResponse, MentionRecord } from '../model.js';
import { isPlainObject } from '../params.js';
import { readMediaIds } from './media-routes.js';
import { presentPublisherMention } from '../present-publisher-mention.js';
import { publish, type PublishStatus } from '../publish.js';
import { invalidParameter, notFound } from '../sim-error.js';

export const PUBLISH_TYPES = ['post', 'reply', 'privatemessage', 'comment', 'like', 'favorite', 'retweet', 'reblog', 'submit'];
const NEEDS_MENTION = new Set(['reply', 'comment', 'like', 'favorite', 'retweet', 'reblog']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Services that send e-mail: the only ones `to` and `subject` apply to. */
export const EMAIL_SERVICES: ReadonlySet<string> = new Set(['email']);

function readType(ctx: ApiContext, required: boolean): string {
  const type = required ? ctx.params.required('type') : ctx.params.str('type') || 'post';
  if (!PUBLISH_TYPES.includes(type)) throw invalidParameter(`Parameter 'type' must be one of ${PUBLISH_TYPES.join(', ')}`);
  return type;
}

function readMention(ctx: ApiContext): MentionRecord | null {
  const topicId = ctx.params.str('topic_id');
  const mentionId = ctx.params.str('mention_id');
  if (!topicId && !mentionId) return null;
  if (!topicId || !mentionId) throw invalidParameter("Parameters 'topic_id' and 'mention_id' go together");
  const m = ctx.rt.state.mentions.get(mentionId, topicId);
  if (!m || String(m.topicId) !== topicId) throw notFound('Mention not found');
  return m;
}

function readServices(ctx: ApiContext, mention: MentionRecord | null): { type: string; service_id: string }[] {
  const list = ctx.params.jsonArray('services', true) ?? [];
  if (list.length === 0) throw invalidParameter("Parameter 'services' must name at least one service");
  const known = new Set(ctx.rt.state.profiles.map((p) => p.type));
  if (mention) known.add(mention.service);
  return list.map((s, i) => {
    const type = isPlainObject(s) ? s['type'] : undefined;
    const serviceId = isPlainObject(s) ? s['service_id'] : undefined;
    if (typeof type !== 'string' || (typeof serviceId !== 'string' && typeof serviceId !== 'number')) {
      throw invalidParameter(`services[${i}] must be an object with type and service_id`);
    }
    if (!known.has(type)) throw invalidParameter(`services[${i}].type '${type}' is not a connected service of this account`);
    if (mention && type !== mention.service) {
      throw invalidParameter(`services[${i}].type '${type}' cannot reply to a ${mention.service} mention`);
    }
    // The description: services are "taken from GET"; an id the GET did not list (the customer's, say) is refused.
    if (!listedServices(ctx, mention).some((p) => p.type === type && p.service_id === String(serviceId))) {
      throw invalidParameter(`services[${i}] (${type} '${serviceId}') is not a service GET publisher/add lists for this message`);
    }
    return { type, service_id: String(serviceId) };
  });
}

/** What GET publisher/add lists as services: the account's profile on the mention's channel, or every profile. */
function listedServices(ctx: ApiContext, mention: MentionRecord | null): { type: string; service_id: string; name: string }[] {
  const { state } = ctx.rt;
  return mention ? [state.profileFor(mention.service)] : [...state.profiles];
}

function readCanned(ctx: ApiContext): CannedResponse | null {
  const id = ctx.params.str('canned_response_id');
  if (!id) return null;
  const canned = ctx.rt.state.canned.get(id);
  if (!canned) throw invalidParameter(`Unknown canned response '${id}'`);
  return canned;
}

function readStatus(ctx: ApiContext, type: string, mention: MentionRecord | null): PublishStatus {
  const status = ctx.params.str('status') ?? '';
  if (status !== '' && status !== 'draft' && status !== 'awaitingapproval') {
    throw invalidParameter("Parameter 'status' must be 'draft', 'awaitingapproval' or '' (direct)");
  }
  if (status === '') {
    const privateReply = (type === 'reply' || type === 'privatemessage') && mention?.messageType === 'privatemessage';
    if (!privateReply) {
      throw invalidParameter(
        "Direct publishing ('' status) is only possible for replies to private messages; use 'draft' or 'awaitingapproval'",
      );
    }
    if (!ctx.rt.state.application.allow_listed) throw invalidParameter('Direct publishing requires an allow-listed application');
  }
  return status;
}

/**
 * engage-api.md, Publisher add: `to` "emails only; each id is an <EMAIL> address", `subject` "emails only". Either
 * parameter, even empty, is refused unless every service is an e-mail service.
 */
function assertEmailOnly(ctx: ApiContext, services: readonly { type: string }[]): void {
  for (const name of ['to', 'subject']) {
    if (!ctx.params.has(name)) continue;
    const other = services.find((s) => !EMAIL_SERVICES.has(s.type));
    if (other) throw invalidParameter(`Parameter '${name}' is for e-mail services only, not '${other.type}'`);
  }
}

function readTo(ctx: ApiContext): { id: string }[] {
  return (ctx.params.jsonArray('to') ?? []).map((t, i) => {
    const id = isPlainObject(t) ? t['id'] : undefined;
    if (typeof id !== 'string' || !EMAIL.test(id)) throw invalidParameter(`to[${i}].id must be an e-mail address`);
    return { id };
  });
}

const postAdd = (ctx: ApiContext): unknown => {
  const type = readType(ctx, true);
  const mention = readMention(ctx);
  if (NEEDS_MENTION.has(type) && !mention) throw invalidParameter(`Type '${type}' needs 'topic_id' and 'mention_id'`);
  const services = readServices(ctx, mention);
  assertEmailOnly(ctx, services);
  const to = readTo(ctx);
  const media = readMediaIds(ctx);
  const canned = readCanned(ctx);
  const status = readStatus(ctx, type, mention);
  const given = ctx.params.str('message') ?? '';
  const message = given !== '' ? given : (canned?.message ?? '');
  if (message === '' && media.length === 0)
    throw invalidParameter("Parameter 'message' is required unless canned_response_id or media is given");
  const now = ctx.rt.now();
  const publishAt = ctx.params.date('date_publish') ?? now;
  const subject = ctx.params.str('subject') ?? null;
  const result = publish(ctx.rt, {
    type,
    services,
    message,
    subject,
    to,
    media,
    status,
    publishAt,
    mention,
    canned,
    userId: ctx.userId,
    author: 'bot',
  });
  const publisherMention = presentPublisherMention(ctx.rt, result.publisherMention, { version: ctx.version, withReply: true });
  // Guess `publish_answer_shape`: a 2xx whose body is not the envelope the bridge reads.
  const shape = ctx.rt.realism.publish_answer_shape;
  if (shape === 'empty') ctx.answer = { body: null };
  else if (shape === 'array') ctx.answer = { body: [publisherMention] };
  else if (shape === 'id_only') ctx.answer = { body: { id: result.publisherMention.id } };
  return { messages: result.messages, publisher_mention: publisherMention };
};

const getAdd = (ctx: ApiContext): unknown => {
  readType(ctx, false);
  const mention = readMention(ctx);
  const withStatus = ctx.version >= 20180208;
  const shape = (p: { type: string; service_id: string; name: string }): Record<string, unknown> =>
    withStatus ? { ...p, status: 'active' } : { ...p };
  return { profiles: ctx.rt.state.profiles.map(shape), services: listedServices(ctx, mention).map(shape) };
};

export const publisherAddRoutes: Route[] = [
  {
    pattern: '/:account/publisher/add',
    ops: {
      GET: { scopes: READ, params: ['type', 'topic_id', 'mention_id'], handler: getAdd },
      POST: {
        scopes: WRITE,
        params: [
          'type',
          'services',
          'to',
          'subject',
          'message',
          'status',
          'date_publish',
          'topic_id',
          'mention_id',
          'media',
          'canned_response_id',
        ],
        handler: postAdd,
      },
    },
  },
];
