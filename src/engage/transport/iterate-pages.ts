import type { z } from 'zod';
import { EngageError } from '../errors/engage-error.js';
import { MalformedResponseError } from '../errors/error-kinds.js';
import type { PagedList } from '../schemas/paged-list.js';
import type { Operation } from './operation.js';
import type { RequestExecutor } from './request-executor.js';

export const DEFAULT_MAX_PAGES = 100;

/** More pages than the guard allows; the pages already yielded were complete. */
export class PageLimitError extends EngageError {
  constructor(template: string, maxPages: number) {
    super('page_limit_reached', `Stopped after ${maxPages} pages of ${template}: narrow the query (dates, filter).`, {
      method: 'GET',
      path: template,
      description: `more than ${maxPages} pages`,
    });
  }
}

/**
 * Yields the first page, then follows `paging.next_url` as given until it is null. The guard stops a
 * runaway (more than `maxPages`, or a next_url seen before): the pages read are yielded first, then it throws.
 * `prefetch`: the next page is asked for as soon as a page arrives, while the caller works on that one (a caller
 * that stops early leaves that one request answered for nothing); a failure of it is thrown at the next page.
 */
export async function* iteratePages<T>(
  executor: RequestExecutor,
  firstOp: () => Operation,
  schema: z.ZodType<PagedList<T>, unknown>,
  maxPages: number = DEFAULT_MAX_PAGES,
  o: { prefetch?: boolean } = {},
): AsyncGenerator<PagedList<T>, void, undefined> {
  // Built inside the generator so a refused query surfaces on the first `next()`, like any call.
  const first = firstOp();
  const seen = new Set<string>();
  let op: Operation = first;
  let ahead: Promise<PagedList<T>> | undefined;
  for (let pages = 1; ; pages += 1) {
    const page = await (ahead ?? executor.json(op, schema));
    ahead = undefined;
    const next = page.paging?.next_url;
    let stop: EngageError | 'end' | undefined;
    if (next === undefined || next === null || next === '') stop = 'end';
    else if (seen.has(next)) {
      stop = new MalformedResponseError({
        method: 'GET',
        path: first.template,
        description: 'paging.next_url repeats a page already read',
      });
    } else if (pages >= maxPages) stop = new PageLimitError(first.template, maxPages);
    else {
      seen.add(next);
      op = { ...first, nextUrl: next, params: {} };
      if (o.prefetch) {
        ahead = executor.json(op, schema);
        ahead.catch(() => undefined); // thrown at the next page; never unhandled when the caller stops early
      }
    }
    yield page;
    if (stop === 'end') return;
    if (stop) throw stop;
  }
}
