import { accountSchema, type Account } from '../schemas/account.js';
import { cannedResponseSchema, type CannedResponse } from '../schemas/canned-response.js';
import { flexibleListSchema, type PagedList } from '../schemas/paged-list.js';
import { sentimentResultSchema, type SentimentResult } from '../schemas/sentiment.js';
import { tagSchema, type Tag } from '../schemas/tag.js';
import { topicSchema, type Topic } from '../schemas/topic.js';
import { iteratePages } from '../transport/iterate-pages.js';
import type { PageQuery } from './business-hours.js';
import { checkLimit, refuse } from './client-rules.js';
import { readOp, type ResourceContext } from './resource-context.js';

const CANNED = '/{account_id}/settings/canned_responses';
const TOPICS = '/{account_id}/settings/topics';
const TAGS = '/{account_id}/settings/tags';
const ACCOUNTS = '/me/accounts';
const SENTIMENT = '/tools/sentiment';

// The brief shows neither shape nor bounds of these lists: a page or a bare array is accepted.
const cannedPage = flexibleListSchema(cannedResponseSchema);
const topicPage = flexibleListSchema(topicSchema);
const tagPage = flexibleListSchema(tagSchema);
const accountPage = flexibleListSchema(accountSchema);

function pageOp(template: string, query: PageQuery) {
  const limit = checkLimit({ method: 'GET', template }, query.limit, Number.MAX_SAFE_INTEGER);
  return readOp(template, {}, { limit, page_token: query.pageToken });
}

export function cannedResponsesResource(ctx: ResourceContext) {
  return {
    list: async (query: PageQuery = {}): Promise<PagedList<CannedResponse>> => ctx.executor.json(pageOp(CANNED, query), cannedPage),
    listPages: (query: PageQuery = {}): AsyncGenerator<PagedList<CannedResponse>, void, undefined> =>
      iteratePages(ctx.executor, () => pageOp(CANNED, query), cannedPage, ctx.maxPages),
  };
}

export function topicsResource(ctx: ResourceContext) {
  return {
    list: async (query: PageQuery = {}): Promise<PagedList<Topic>> => ctx.executor.json(pageOp(TOPICS, query), topicPage),
    listPages: (query: PageQuery = {}): AsyncGenerator<PagedList<Topic>, void, undefined> =>
      iteratePages(ctx.executor, () => pageOp(TOPICS, query), topicPage, ctx.maxPages),
    /** Every topic, through every page: a service may page them whatever `limit` asks (issue 26). */
    all: async (query: PageQuery = {}): Promise<Topic[]> => {
      const topics: Topic[] = [];
      for await (const page of iteratePages(ctx.executor, () => pageOp(TOPICS, query), topicPage, ctx.maxPages)) topics.push(...page.data);
      return topics;
    },
  };
}

export function tagsResource(ctx: ResourceContext) {
  return { list: async (query: PageQuery = {}): Promise<PagedList<Tag>> => ctx.executor.json(pageOp(TAGS, query), tagPage) };
}

export function meResource(ctx: ResourceContext) {
  return {
    /** The accounts the token's user can reach; `fields` narrows what each carries. */
    accounts: async (query: { fields?: readonly string[] } = {}): Promise<Account[]> => {
      const fields = query.fields === undefined || query.fields.length === 0 ? undefined : query.fields.join(',');
      const page = await ctx.executor.json(readOp(ACCOUNTS, {}, { fields }), accountPage);
      return page.data;
    },
  };
}

export function toolsResource(ctx: ResourceContext) {
  return {
    sentiment: async (input: { text: string; language?: string }): Promise<SentimentResult> => {
      if (typeof input.text !== 'string' || input.text.trim() === '') {
        throw refuse({ method: 'GET', template: SENTIMENT }, 'text must not be empty');
      }
      return ctx.executor.json(readOp(SENTIMENT, {}, { text: input.text, language: input.language }), sentimentResultSchema);
    },
  };
}
