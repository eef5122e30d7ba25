import { z } from 'zod';

/**
 * Ids arrive as numbers in some payloads and strings in others (public samples show both);
 * we normalise to strings so equality checks never depend on the source's choice.
 */
export const idSchema = z
  // One type test, not a union: a union tries the string schema first, and every numeric id (topic ids are) paid for
  // the string schema's failure, its issue built and dropped: the largest part of reading a mention.
  .custom<string | number>((value) => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)), {
    error: 'expected an id (string or number)',
  })
  .transform((value) => String(value));

export const nullableIdSchema = idSchema.nullable();

/** UNIX seconds; a numeric string is accepted because some sources quote numbers. */
export const unixSecondsSchema = z.union([z.number().finite(), z.string().regex(/^\d+(\.\d+)?$/)]).transform((value) => Number(value));

/** A `{ type, service_id }` pair naming a profile on a social network or channel. */
export const serviceRefSchema = z.looseObject({
  type: z.string(),
  service_id: idSchema,
});
export type ServiceRef = z.output<typeof serviceRefSchema>;

/** `date` objects of resources: both keys optional, `updated` may be null (never changed). */
export const resourceDateSchema = z.looseObject({
  added: unixSecondsSchema.nullable().optional(),
  updated: unixSecondsSchema.nullable().optional(),
});

/**
 * A tag on an item. Usually a string; from version 20180115 tag objects carry a status, so an object
 * with a name is read as that name (the list stays `string[]` for every consumer).
 */
export const tagNameSchema = z.union([z.string(), z.looseObject({ name: z.string() }).transform((tag) => tag.name)]);

/**
 * A list of tags, read for their names only: a tag the bridge cannot name (an object without `name`, issue 26) is
 * left out instead of failing the item that carries it.
 */
export const tagListSchema = z.array(z.unknown()).transform((items) => {
  const names: string[] = [];
  for (const item of items) {
    const read = tagNameSchema.safeParse(item);
    if (read.success) names.push(read.data);
  }
  return names;
});

/**
 * An object the bridge reads nothing from: `[]` (how some JSON encoders write an empty map) reads as `{}`.
 */
export const emptyAsObject = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (Array.isArray(value) && value.length === 0 ? {} : value), schema);
