import { z } from 'zod';

export const metaMessageSchema = z.looseObject({
  type: z.string().optional(),
  text: z.string().optional(),
});
export type MetaMessage = z.output<typeof metaMessageSchema>;

export const envelopeMetaSchema = z.looseObject({
  // A number as the conventions show it; a numeric string as looser services write it (issue 26).
  code: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
  messages: z.array(metaMessageSchema).optional(),
  etag: z.string().optional(),
  // The alternative error shape some deployments answer with.
  error_type: z.string().optional(),
  error_message: z.string().optional(),
});
export type EnvelopeMeta = z.output<typeof envelopeMetaSchema>;

/** `{ meta, response }`; `response` is parsed separately by each operation's item schema. */
export const envelopeSchema = z.looseObject({
  meta: envelopeMetaSchema.optional(),
  response: z.unknown().optional(),
});
export type Envelope = z.output<typeof envelopeSchema>;

/** The OAuth-style error body (top level), and the alternative `meta.*` shape. */
export const errorBodySchema = z.looseObject({
  error: z.string().optional(),
  error_description: z.string().optional(),
  meta: envelopeMetaSchema.optional(),
});
export type ErrorBody = z.output<typeof errorBodySchema>;
