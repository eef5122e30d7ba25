// Small value schemas the flow file's parts share.
import { z } from 'zod';
import { LANGUAGE_CODE } from './localized-texts.js';

export const name = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'a name is letters, digits, _ and -, starting with a letter');

/** An id as people write it in YAML: `501` and `"501"` mean the same canned response or button. */
export const idText = z.union([z.string().min(1), z.number().int().nonnegative()]).transform(String);

export const languageCode = z.string().regex(LANGUAGE_CODE, 'a language code is like en, nl, fr or pt-BR');

/** Example utterances per language, for the embedded NLU: `{ en: [...], nl: [...], fr: [...] }`. */
export const examplesSchema = z.record(languageCode, z.array(z.string().min(1))).default({});
export type Examples = z.infer<typeof examplesSchema>;
