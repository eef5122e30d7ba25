import { z } from 'zod';
import {
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
    add: async (input: PublisherAddInput): Promise<PublisherAddResult> => {
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
      return ctx.executor.json(writeOp('POST', ADD, false, {}, params), publisherAddResultSchema);
    },
  };
}
