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
 * runaway (more than `maxPages`, or a next_url seen before).
 */
export async function* iteratePages<T>(
  executor: RequestExecutor,
  firstOp: () => Operation,
  schema: z.ZodType<PagedList<T>, unknown>,
  maxPages: number = DEFAULT_MAX_PAGES,
): AsyncGenerator<PagedList<T>, void, undefined> {
  // Built inside the generator so a refused query surfaces on the first `next()`, like any call.
  const first = firstOp();
  const seen = new Set<string>();
  let op: Operation = first;
  for (let pages = 1; ; pages += 1) {
    const page = await executor.json(op, schema);
    yield page;
    const next = page.paging?.next_url;
    if (next === undefined || next === null || next === '') return;
    if (seen.has(next)) {
      throw new MalformedResponseError({ method: 'GET', path: first.template, description: 'paging.next_url repeats a page already read' });
    }
    if (pages >= maxPages) throw new PageLimitError(first.template, maxPages);
    seen.add(next);
    op = { ...first, nextUrl: next, params: {} };
  }
}
