import { z } from 'zod';

export const pagingSchema = z.looseObject({
  next_url: z.string().nullable().optional(),
  previous_url: z.string().nullable().optional(),
});
export type Paging = z.output<typeof pagingSchema>;

/** A page of items: `{ count?, data: [...], paging: { next_url, previous_url } }`. */
export function pagedListSchema<T extends z.ZodType>(item: T) {
  return z.looseObject({
    count: z.number().optional(),
    data: z.array(item),
    paging: pagingSchema.optional(),
  });
}

export interface PagedList<T> {
  count?: number | undefined;
  data: T[];
  paging?: Paging | undefined;
  [key: string]: unknown;
}

/** For lists whose shape the brief does not show: a paged list, or a bare array read as one page. */
export function flexibleListSchema<T extends z.ZodType>(item: T) {
  return z.union([pagedListSchema(item), z.array(item).transform((data) => ({ data, paging: { next_url: null, previous_url: null } }))]);
}

/** A page whose items are not read yet: the caller reads each alone (see `itemByItemPageSchema`). */
export const rawPageSchema = pagedListSchema(z.unknown());

/** An item of a page that could not be read: skipped alone, the rest of the page is kept. */
export interface InvalidListItem {
  /** The item's id when it has one we can show. */
  readonly id: string | undefined;
  readonly problem: string;
}

/** A page validated item by item: what could be read in `data`, the rest in `invalid`. */
export interface ItemByItemPage<T> extends PagedList<T> {
  invalid: InvalidListItem[];
}

/**
 * A paged list whose items are validated one by one: one odd item never fails the page (or stops the paging);
 * it is named in `invalid` for the caller to log and count.
 */
export function itemByItemPageSchema<T extends z.ZodType>(item: T) {
  return rawPageSchema.transform((page): ItemByItemPage<z.output<T>> => {
    const data: z.output<T>[] = [];
    const invalid: InvalidListItem[] = [];
    for (const raw of page.data) {
      const parsed = item.safeParse(raw);
      if (parsed.success) data.push(parsed.data);
      else invalid.push(invalidItem(raw, parsed.error));
    }
    return { ...page, data, invalid };
  });
}

/** How an unreadable item is named: its id (when it has one) and the first problem. */
export function invalidItem(raw: unknown, error: z.ZodError): InvalidListItem {
  return { id: idOf(raw), problem: z.prettifyError(error).split('\n').slice(0, 2).join(' ') };
}

function idOf(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const id = (item as Record<string, unknown>).id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}
