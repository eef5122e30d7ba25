import { z } from 'zod';
import { tagsEditModeSchema } from '../schemas/contact.js';
import { itemByItemPageSchema, type ItemByItemPage } from '../schemas/paged-list.js';
import { publisherMentionSchema, type PublisherMention } from '../schemas/publisher-mention.js';
import { iteratePages } from '../transport/iterate-pages.js';
import { checkId, checkInput, checkLimit, isoDate, refuse } from './client-rules.js';
import { isNonEmptyObject, readOp, writeOp, type ResourceContext } from './resource-context.js';

const ONE = '/{account_id}/publisher/mention/{id}';
const LIST = '/{account_id}/publisher/mentions';

export const publisherMentionUpdateOptionsSchema = z.strictObject({
  tags_edit_mode: tagsEditModeSchema.optional(),
  sendMail: z.boolean().optional(),
});
export type PublisherMentionUpdateOptions = z.input<typeof publisherMentionUpdateOptionsSchema>;

export const publisherMentionDeleteOptionsSchema = z.strictObject({
  comment: z.string().optional(),
  sendMail: z.boolean().optional(),
  reassignAuthor: z.boolean().optional(),
});
export type PublisherMentionDeleteOptions = z.input<typeof publisherMentionDeleteOptionsSchema>;

export interface PublisherMentionListQuery {
  dateFrom?: Date | string;
  dateTo?: Date | string;
  /** e.g. `posted` for published history. */
  status?: string;
  limit?: number;
  pageToken?: string;
}

/** A page of publisher mentions, validated item by item: one odd item is named in `invalid`, the others kept. */
export type PublisherMentionPage = ItemByItemPage<PublisherMention>;

const pageSchema = itemByItemPageSchema(publisherMentionSchema);

export function publisherMentionsResource(ctx: ResourceContext) {
  const idOf = (method: string, id: string | number) => ({ id: checkId({ method, template: ONE }, 'id', id) });
  return {
    /** Shows `in_reply_to` when the post answers a mention (the list does not). */
    get: async (id: string | number): Promise<PublisherMention> => ctx.executor.json(readOp(ONE, idOf('GET', id)), publisherMentionSchema),
    update: async (
      id: string | number,
      updates: Record<string, unknown>,
      opts: { options?: PublisherMentionUpdateOptions } = {},
    ): Promise<PublisherMention> => {
      const site = { method: 'POST', template: ONE };
      const path = idOf('POST', id);
      if (!isNonEmptyObject(updates)) throw refuse(site, 'updates must name at least one key to change');
      const options =
        opts.options === undefined ? undefined : checkInput(site, publisherMentionUpdateOptionsSchema, opts.options, 'options');
      // Not retried: an update can publish a scheduled post or append a note.
      return ctx.executor.json(writeOp('POST', ONE, false, path, { updates, options }), publisherMentionSchema);
    },
    delete: async (id: string | number, opts: { options?: PublisherMentionDeleteOptions } = {}): Promise<boolean> => {
      const site = { method: 'DELETE', template: ONE };
      const path = idOf('DELETE', id);
      const options =
        opts.options === undefined ? undefined : checkInput(site, publisherMentionDeleteOptionsSchema, opts.options, 'options');
      return ctx.executor.json(writeOp('DELETE', ONE, false, path, { options }), z.boolean());
    },
    list: async (query: PublisherMentionListQuery = {}): Promise<PublisherMentionPage> => ctx.executor.json(listOp(query), pageSchema),
    listPages: (query: PublisherMentionListQuery = {}): AsyncGenerator<PublisherMentionPage, void, undefined> =>
      // iteratePages yields what the schema outputs: a PublisherMentionPage (its signature only names PagedList).
      iteratePages(ctx.executor, () => listOp(query), pageSchema, ctx.maxPages) as AsyncGenerator<PublisherMentionPage, void, undefined>,
  };
}

function listOp(query: PublisherMentionListQuery) {
  const site = { method: 'GET', template: LIST };
  return readOp(
    LIST,
    {},
    {
      date_from: isoDate(site, 'dateFrom', query.dateFrom),
      date_to: isoDate(site, 'dateTo', query.dateTo),
      status: query.status,
      // Bounds are not published for this list; only the shape is checked.
      limit: checkLimit(site, query.limit, Number.MAX_SAFE_INTEGER),
      page_token: query.pageToken,
    },
  );
}
