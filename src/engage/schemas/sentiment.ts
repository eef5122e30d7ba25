import { z } from 'zod';

const sentimentObjectSchema = z.looseObject({
  sentiment: z.union([z.string(), z.number()]).nullable().optional(),
  language: z.string().nullable().optional(),
  score: z.number().nullable().optional(),
});

/** The shape of `/tools/sentiment` is not shown: accept an object, or a bare label/score wrapped as one. */
export const sentimentResultSchema = z.union([
  sentimentObjectSchema,
  z.union([z.string(), z.number()]).transform((sentiment) => ({ sentiment })),
]);
export type SentimentResult = z.output<typeof sentimentResultSchema>;
