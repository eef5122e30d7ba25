import { z } from 'zod';
import { idSchema, resourceDateSchema, serviceRefSchema, tagListSchema, emptyAsObject } from './primitives.js';

export const contactCountrySchema = z.looseObject({
  name: z.string().nullable().optional(),
  code: z.string().nullable().optional(),
});

export const contactSchema = z.looseObject({
  id: idSchema,
  name: z.string().nullable().optional(),
  socialprofiles: z.array(serviceRefSchema).optional(),
  tags: tagListSchema.optional(),
  customattributes: emptyAsObject(z.record(z.string(), z.unknown()).nullable().optional()),
  address: z.looseObject({ country: contactCountrySchema.nullable().optional() }).nullable().optional(),
  company: z.string().nullable().optional(),
  comments: z.string().nullable().optional(),
  telephone: z.string().nullable().optional(),
  date: resourceDateSchema.optional(),
  permalink: z.string().optional(),
});
export type Contact = z.output<typeof contactSchema>;

export const customAttributesEditModeSchema = z.enum(['update', 'overwrite', 'delete']);
export const tagsEditModeSchema = z.enum(['update', 'add', 'delete']);
export type TagsEditMode = z.output<typeof tagsEditModeSchema>;

/** The `options` of a contact update; unknown keys are refused (the service answers 400). */
export const contactUpdateOptionsSchema = z.strictObject({
  customattributes_edit_mode: customAttributesEditModeSchema.optional(),
  tags_edit_mode: tagsEditModeSchema.optional(),
});
export type ContactUpdateOptions = z.output<typeof contactUpdateOptionsSchema>;

/** Contact types whose fetch and update need `topic_ids` (brief: contact). */
export const CONTACT_TYPES_NEEDING_TOPIC_IDS: readonly string[] = ['wechat', 'twilio', 'web', 'whatsapp', 'viber'];
