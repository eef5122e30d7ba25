// The flow file's sections for reaching every customer: languages, the satisfaction survey, the NLU mapping.
import { z } from 'zod';
import { examplesSchema, idText, languageCode, name } from './flow-names.js';
import { CHANNELS } from './types.js';

export const languagesSchema = z
  .object({
    default: languageCode.default('en'),
    /** The other languages every text is written in (the loader reports a text missing in one). */
    supported: z.array(languageCode).default([]),
    /** A contact custom attribute holding the contact's language (e.g. `language: nl`). */
    contact_attribute: z.string().min(1).optional(),
    /** The detector guesses the language only from a message at least this long (letters and spaces). */
    detect_min_chars: z.number().int().min(1).default(20),
    detect: z.boolean().default(true),
    /** Said when the customer picks a language (a step `language: nl`), before the main menu. */
    switched: z.string().min(1).default("OK, let's continue in English."),
  })
  .strict()
  .prefault({});

export const surveySchema = z
  .object({
    /** off, or the kind of canned response sent when a stretch with people ends. */
    type: z.enum(['off', 'csat', 'nps']).default('csat'),
    /** The canned response (name or id) of that type; unset: the account's first one of that type. */
    canned_response: idText.optional(),
    /** Wait this long after the people are done before asking (0: right after "back with the assistant"). */
    delay_minutes: z.number().int().min(0).max(10080).default(0),
    channels: z.array(z.enum(CHANNELS)).default([...CHANNELS]),
    /** An answer counts while it comes within this time of the question. */
    answer_minutes: z.number().int().min(1).default(1440),
    /** The answer's tag on the mention and the contact is this prefix and the score: csat-5, nps-9. */
    tag_prefix: z.string().min(1).optional(),
    tag_contact: z.boolean().default(true),
    /** The question where the canned response cannot be sent natively (SMS) or the account has none; {scale} is "1 to 5". */
    text: z.string().min(1).default('How did we do? Reply with a number from {scale}.'),
    /** "1 (bad) to 5 (great)" for CSAT, "0 (not at all) to 10 (certainly)" for NPS. */
    csat_scale: z.string().min(1).default('1 (bad) to 5 (great)'),
    nps_scale: z.string().min(1).default('0 (not at all likely to recommend us) to 10 (certainly)'),
    thanks: z.string().min(1).default('Thank you for your feedback!'),
  })
  .strict()
  .prefault({});

export const nluSchema = z
  .object({
    /** An NLU intent counts at or above this confidence; below it the bot's own matching decides. */
    threshold: z.number().min(0).max(1).default(0.7),
    /** NLU intent name → intent of this file (an NLU intent named like one of ours needs no entry). */
    intents: z.record(z.string().min(1), name).default({}),
    /** The NLU trained at start from the flows' examples (used when no server is configured or it gives no answer). */
    embedded: z
      .object({
        enabled: z.boolean().default(true),
        /** Its intent counts at or above this confidence; below, the bot asks rather than guesses. */
        threshold: z.number().min(0).max(1).default(0.5),
        /** Below the threshold, the two likeliest intents are offered when both are at least this likely. */
        clarify_min: z.number().min(0).max(1).default(0.25),
        /** Intents that yield to another one said in the same message ("thanks, but where is my order?"). */
        yielding: z.array(name).default([]),
      })
      .strict()
      .prefault({}),
    /** What the flows do not cover (greetings, other topics), so the model learns to say so rather than guess. */
    out_of_scope: examplesSchema,
    /** Asked with the two likeliest intents as quick replies when the NLU hesitates between them. */
    clarify: z.string().min(1).default("I'm not sure I understood. Did you mean one of these?"),
  })
  .strict()
  .prefault({});
