import { z } from 'zod';

export const mentionAttachmentSchema = z.looseObject({
  type: z.string().optional(),
  url: z.string().optional(),
  question: z.unknown().optional(),
});
export type MentionAttachment = z.output<typeof mentionAttachmentSchema>;
