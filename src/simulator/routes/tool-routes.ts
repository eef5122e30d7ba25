import { READ, type ApiContext, type Route } from '../api-types.js';
import { offsetPage } from '../paging.js';
import { scoreSentiment } from '../sentiment.js';
import { invalidParameter } from '../sim-error.js';

const LANGUAGES = /^[a-z]{2}$/;

const accounts = (ctx: ApiContext): unknown => {
  const { state } = ctx.rt;
  const full: Record<string, unknown> = {
    id: state.account.id,
    name: state.account.name,
    topics: [...state.topics.values()].map((t) => ({ ...t })),
  };
  const fields = ctx.params
    .str('fields')
    ?.split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const item = fields ? Object.fromEntries(Object.entries(full).filter(([k]) => k === 'id' || fields.includes(k))) : full;
  return offsetPage(ctx, [item], ctx.params.int('limit', 0, 200, 20));
};

const sentiment = (ctx: ApiContext): unknown => {
  const text = ctx.params.str('string') ?? ctx.params.str('text');
  if (text === undefined || text === '') throw invalidParameter("Missing required parameter 'string'");
  const language = ctx.params.str('language') ?? 'en';
  if (!LANGUAGES.test(language)) throw invalidParameter("Parameter 'language' must be a two-letter language code");
  return { ...scoreSentiment(text), language };
};

const sentimentOp = { scopes: READ, params: ['string', 'text', 'language'], handler: sentiment };

export const toolRoutes: Route[] = [
  { pattern: '/me/accounts', ops: { GET: { scopes: READ, params: ['fields', 'limit', 'page_token'], handler: accounts } } },
  { pattern: '/tools/sentiment', ops: { GET: sentimentOp, POST: sentimentOp } },
];
