import { z } from 'zod';
import { tagsEditModeSchema } from '../schemas/contact.js';
import { mentionSchema, type Mention } from '../schemas/mention.js';
import { itemByItemPageSchema } from '../schemas/paged-list.js';
import { readMentionPages, type KnownMention, type MentionPage } from './mention-pages.js';
import { checkId, checkInput, checkLimit, isoDate, refuse } from './client-rules.js';
import { commaList, isNonEmptyObject, readOp, writeOp, type ResourceContext } from './resource-context.js';

const ONE = '/{account_id}/inbox/mention/{topic_id}/{id}';
const LIST = '/{account_id}/inbox/mentions';
/** The brief: `sendMail` needs version 20160108 or later. */
const SEND_MAIL_MIN_VERSION = '20160108';

export interface MentionRef {
  topicId: string | number;
  id: string | number;
}

export const mentionUpdateOptionsSchema = z.strictObject({
  tags_edit_mode: tagsEditModeSchema.optional(),
  sendMail: z.boolean().optional(),
  hide_on_service: z.boolean().optional(),
  delete_on_service: z.boolean().optional(),
});
export type MentionUpdateOptions = z.input<typeof mentionUpdateOptionsSchema>;

export const mentionDeleteOptionsSchema = z.strictObject({
  delete_on_service: z.boolean().optional(),
  hide_on_service: z.boolean().optional(),
  block_author_on_service: z.boolean().optional(),
});
export type MentionDeleteOptions = z.input<typeof mentionDeleteOptionsSchema>;

/** Only the mention keys to change, e.g. `{ tags: [...] }`, `{ status: 'done' }`, `{ message: { sentiment } }`. */
export type MentionUpdates = Record<string, unknown>;

export interface MentionListQuery {
  topicIds?: readonly (string | number)[];
  dateFrom?: Date | string;
  dateTo?: Date | string;
  /** e.g. `dateadd:asc`. */
  sort?: string;
  limit?: number;
  pageToken?: string;
  /** Lucene-like, e.g. `status:new AND source:whatsapp`. */
  filter?: string;
}

export type { KnownMention, MentionPage } from './mention-pages.js';

const mentionPageSchema = itemByItemPageSchema(mentionSchema);

export function mentionsResource(ctx: ResourceContext) {
  const pathOf = (method: string, ref: MentionRef) => {
    const site = { method, template: ONE };
    return { topic_id: checkId(site, 'topicId', ref.topicId), id: checkId(site, 'id', ref.id) };
  };
  return {
    get: async (ref: MentionRef): Promise<Mention> => ctx.executor.json(readOp(ONE, pathOf('GET', ref)), mentionSchema),
    update: async (
      ref: MentionRef,
      updates: MentionUpdates,
      opts: { options?: MentionUpdateOptions; listFilter?: string } = {},
    ): Promise<Mention> => {
      const site = { method: 'POST', template: ONE };
      const path = pathOf('POST', ref);
      if (!isNonEmptyObject(updates)) throw refuse(site, 'updates must name at least one mention key to change');
      const options = opts.options === undefined ? undefined : checkInput(site, mentionUpdateOptionsSchema, opts.options, 'options');
      if (options?.sendMail !== undefined && ctx.version < SEND_MAIL_MIN_VERSION) {
        throw refuse(site, `the sendMail option needs version ${SEND_MAIL_MIN_VERSION} or later (configured: ${ctx.version})`);
      }
      // Setting keys is idempotent and may be retried; a note in `actions` is appended by the service, so never.
      const params = { updates, options, list_filter: opts.listFilter };
      return ctx.executor.json(writeOp('POST', ONE, !('actions' in updates), path, params), mentionSchema);
    },
    delete: async (ref: MentionRef, opts: { options?: MentionDeleteOptions } = {}): Promise<boolean> => {
      const site = { method: 'DELETE', template: ONE };
      const path = pathOf('DELETE', ref);
      const options = opts.options === undefined ? undefined : checkInput(site, mentionDeleteOptionsSchema, opts.options, 'options');
      return ctx.executor.json(writeOp('DELETE', ONE, false, path, { options }), z.boolean());
    },
    /** One page of the inbox (`inbox/mentions`). */
    list: async (query: MentionListQuery = {}): Promise<MentionPage> => ctx.executor.json(listOp(query), mentionPageSchema),
    /**
     * Every page, following `paging.next_url`. `isKnown`: mentions already recorded get only the check of what a
     * re-read can change (see `mention-pages.ts`).
     */
    /** `prefetch`: each next page is asked for while the caller works on the one before (`iteratePages`). */
    listPages: (
      query: MentionListQuery = {},
      o: { isKnown?: KnownMention; prefetch?: boolean } = {},
    ): AsyncGenerator<MentionPage, void, undefined> =>
      readMentionPages(ctx.executor, () => listOp(query), ctx.maxPages, o.isKnown, o.prefetch),
  };
}

function listOp(query: MentionListQuery) {
  const site = { method: 'GET', template: LIST };
  return readOp(
    LIST,
    {},
    {
      topic_ids: commaList(query.topicIds),
      date_from: isoDate(site, 'dateFrom', query.dateFrom),
      date_to: isoDate(site, 'dateTo', query.dateTo),
      sort: query.sort,
      limit: checkLimit(site, query.limit, 100),
      page_token: query.pageToken,
      filter: query.filter,
    },
  );
}
