import { WRITE, type ApiContext, type Route } from '../api-types.js';
import type { MediaItem } from '../model.js';
import { invalidParameter } from '../sim-error.js';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * engage-api.md names "the media/add endpoint" (publisher add, `media`: "ids returned by the media/add endpoint") and
 * nothing more. Simulator choice: `POST /{account_id}/publisher/media/add` with exactly one of `url` (an http(s)
 * address of the file) or `data` (the file as base64), and an optional `filename`; the answer is the media item.
 * Only the item is kept, never the bytes.
 */
const addMedia = (ctx: ApiContext): MediaItem => {
  const url = ctx.params.str('url') ?? '';
  const data = ctx.params.str('data') ?? '';
  if ((url === '') === (data === '')) throw invalidParameter("Give exactly one of 'url' or 'data' (base64)");
  if (url !== '' && !isHttpUrl(url)) throw invalidParameter("Parameter 'url' must be an http(s) address");
  if (data !== '' && !BASE64.test(data)) throw invalidParameter("Parameter 'data' must be base64");
  const filename = ctx.params.str('filename') || (url !== '' ? (new URL(url).pathname.split('/').pop() ?? '') : '') || 'upload';
  const { state } = ctx.rt;
  const item: MediaItem = {
    id: state.newId('media'),
    filename,
    url: url !== '' ? url : null,
    size: data !== '' ? Buffer.from(data, 'base64').length : null,
    date: { added: ctx.rt.now() },
  };
  state.media.set(item.id, item);
  return { ...item, date: { ...item.date } };
};

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The `media` parameter of publisher add: a JSON array of ids that media/add returned; anything else is a 400. */
export function readMediaIds(ctx: ApiContext): string[] {
  return (ctx.params.jsonArray('media') ?? []).map((m, i) => {
    if (typeof m !== 'string' && typeof m !== 'number') throw invalidParameter(`media[${i}] must be a media id`);
    const id = String(m);
    if (!ctx.rt.state.media.has(id)) throw invalidParameter(`media[${i}] '${id}' is not an id returned by media/add`);
    return id;
  });
}

export const mediaRoutes: Route[] = [
  { pattern: '/:account/publisher/media/add', ops: { POST: { scopes: WRITE, params: ['url', 'data', 'filename'], handler: addMedia } } },
];
