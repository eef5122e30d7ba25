import { z } from 'zod';
import {
  addedPublisherMentionSchema,
  publisherActionTypeSchema,
  publisherAddResultSchema,
  publisherServicesSchema,
  type PublisherActionType,
  type PublisherAddResult,
  type PublisherServices,
} from '../schemas/publisher-add.js';
import { publisherStatusSchema, type PublisherStatus } from '../schemas/publisher-mention.js';
import { checkInput, isoDate, refuse } from './client-rules.js';
import { readOp, writeOp, type ResourceContext } from './resource-context.js';

const ADD = '/{account_id}/publisher/add';

export interface PublisherServicesQuery {
  type?: PublisherActionType;
  topicId?: string | number;
  mentionId?: string | number;
}

export interface PublisherAddInput {
  type: PublisherActionType;
  services: ReadonlyArray<{ type: string; service_id: string | number }>;
  message?: string;
  /** Emails only: each id is an address. */
  to?: ReadonlyArray<{ id: string }>;
  subject?: string;
  /** `''` publishes directly (private-message replies of allow-listed applications only). */
  status?: PublisherStatus;
  datePublish?: Date | string;
  topicId?: string | number;
  mentionId?: string | number;
  media?: ReadonlyArray<string | number>;
  cannedResponseId?: string | number;
}

const addInputSchema = z.object({
  type: publisherActionTypeSchema,
  services: z
    .array(z.object({ type: z.string().min(1), service_id: z.union([z.string().min(1), z.number()]).transform(String) }))
    .min(1, 'at least one service is needed (take them from publisher.services)'),
  to: z.array(z.object({ id: z.email() })).optional(),
  status: publisherStatusSchema.optional(),
  media: z.array(z.union([z.string(), z.number()]).transform(String)).optional(),
});

/**
 * What a 2xx `publisher/add` says of the message it published. The envelope's `{messages, publisher_mention}` as
 * the conventions show it; otherwise whatever names the publisher mention (a bare publisher mention, a list of them,
 * `{id}`), and `unread` saying the body was not the envelope. Nothing here can fail: the message is out.
 */
export function readPublishAnswer(response: unknown, bodyText?: string): PublisherAddResult & { unread?: string } {
  const parsed = publisherAddResultSchema.safeParse(response);
  if (parsed.success) return parsed.data;
  let body: unknown = response;
  if (bodyText !== undefined) {
    try {
      body = JSON.parse(bodyText);
    } catch {
      body = undefined;
    }
  }
  const candidate = Array.isArray(body) ? body[0] : body;
  const inner = candidate && typeof candidate === 'object' && 'publisher_mention' in candidate ? candidate.publisher_mention : candidate;
  const pm = addedPublisherMentionSchema.safeParse(inner);
  const what =
    bodyText === undefined ? 'a response of another shape' : bodyText.trim() === '' ? 'an empty body' : 'a body that is not the envelope';
  return { messages: [], publisher_mention: pm.success ? pm.data : null, unread: what };
}

export function publisherResource(ctx: ResourceContext) {
  return {
    /** GET publisher/add: the profiles and services one can publish or reply with. */
    services: async (query: PublisherServicesQuery = {}): Promise<PublisherServices> =>
      ctx.executor.json(
        readOp(ADD, {}, { type: query.type, topic_id: query.topicId, mention_id: query.mentionId }),
        publisherServicesSchema,
      ),
    /**
     * POST publisher/add. Never retried automatically: a repeat could publish twice, so after a
     * failure the caller checks whether the message went out before trying again.
     */
    add: async (input: PublisherAddInput): Promise<PublisherAddResult & { unread?: string }> => {
      const site = { method: 'POST', template: ADD };
      const checked = checkInput(site, addInputSchema, input, 'input');
      const hasMedia = (checked.media?.length ?? 0) > 0;
      if ((input.message ?? '') === '' && input.cannedResponseId === undefined && !hasMedia) {
        throw refuse(site, 'a message is required unless canned_response_id or media is given');
      }
      const params = {
        type: checked.type,
        services: checked.services,
        to: checked.to,
        subject: input.subject,
        message: input.message,
        status: checked.status,
        date_publish: isoDate(site, 'datePublish', input.datePublish),
        topic_id: input.topicId,
        mention_id: input.mentionId,
        media: checked.media,
        canned_response_id: input.cannedResponseId,
      };
      // A 2xx is a sent message whatever its body (issue 26): never an error, so never sent again.
      const { envelope, answer } = await ctx.executor.send({ ...writeOp('POST', ADD, false, {}, params), doneOnAny2xx: true });
      return readPublishAnswer(envelope?.response, envelope ? undefined : answer.bodyText);
    },
  };
}
