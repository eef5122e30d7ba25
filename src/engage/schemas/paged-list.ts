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
