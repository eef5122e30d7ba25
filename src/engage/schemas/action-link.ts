import { z } from 'zod';

export const actionLinkSchema = z.looseObject({
  type: z.string().optional(),
  key: z.string(),
  http_method: z.enum(['GET', 'POST', 'DELETE']).optional(),
  link: z.string().optional(),
  post_params: z.unknown().optional(),
});
export type ActionLink = z.output<typeof actionLinkSchema>;
