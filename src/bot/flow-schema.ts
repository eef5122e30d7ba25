// The flow file's schema: what the people who run the bot may write in config/flows.yaml.
import { z } from 'zod';
import { outcomeTextsSchema } from './outcome-texts.js';
import { patternProblem } from './linear-pattern.js';
import type { Translations } from './localized-texts.js';
import { type Examples, examplesSchema, idText, languageCode, name } from './flow-names.js';
import { languagesSchema as languages, nluSchema as nlu, surveySchema as survey } from './reach-schemas.js';

export const PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
const priority = z.enum(PRIORITIES);
const reasonCode = z.string().regex(/^[a-z][a-z0-9_]*$/, 'a reason code is lower case letters, digits and _');

const regex = z
  .string()
  .min(1)
  .superRefine((src, ctx) => {
    const problem = patternProblem(src);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

const escalateSpec = z
  .object({
    reason: reasonCode.optional(),
    priority: priority.optional(),
    tags: z.array(z.string().min(1)).optional(),
    note: z.string().optional(),
  })
  .strict();

const STEP_KINDS = ['reply', 'menu', 'ask', 'escalate', 'intent', 'language'] as const;

/** What a button, an intent or an answered question leads to. */
export const stepSchema = z
  .object({
    reply: z.string().min(1).optional(),
    menu: name.optional(),
    ask: name.optional(),
    escalate: z.union([z.literal(true), escalateSpec]).optional(),
    intent: name.optional(),
    /** The customer chose a language (a language menu's button): kept for the contact. */
    language: languageCode.optional(),
  })
  .strict()
  .superRefine((step, ctx) => {
    const kinds = STEP_KINDS.filter((k) => step[k] !== undefined);
    const ok = kinds.length === 1 || (kinds.length === 2 && step.reply !== undefined && step.menu !== undefined);
    if (!ok) {
      ctx.addIssue({
        code: 'custom',
        message: `a step has exactly one of ${STEP_KINDS.join(', ')} (reply may come with menu); found ${kinds.join(', ') || 'none'}`,
      });
    }
  });
export type Step = z.infer<typeof stepSchema>;

const textWithMenu = z.object({ text: z.string().min(1), menu: name.optional() }).strict();

const menuButton = z
  .object({
    id: z
      .union([z.string().min(1), z.number().int().nonnegative()])
      .transform(String)
      .optional(),
    title: z.string().min(1).optional(),
    // biome-ignore lint/suspicious/noThenProperty: `then` is the flow file's own key (what a button or intent leads to)
    then: stepSchema,
  })
  .strict()
  .refine((b) => b.id !== undefined || b.title !== undefined, 'a menu button needs an id or a title');

const menu = z
  .object({
    canned_response: idText.optional(),
    text: z.string().min(1),
    buttons: z.array(menuButton).min(1),
  })
  .strict();
export type MenuSpec = z.infer<typeof menu>;

const exampleCount = (e: Examples): number => Object.values(e).reduce((n, xs) => n + xs.length, 0);

const intent = z
  .object({
    keywords: z.array(z.string().min(1)).default([]),
    phrases: z.array(z.string().min(1)).default([]),
    patterns: z.array(regex).default([]),
    examples: examplesSchema,
    always_human: z.boolean().default(false),
    // biome-ignore lint/suspicious/noThenProperty: `then` is the flow file's own key (what a button or intent leads to)
    then: stepSchema.optional(),
  })
  .strict()
  .refine(
    (i) => i.keywords.length + i.phrases.length + i.patterns.length + exampleCount(i.examples) > 0,
    'an intent needs examples, keywords, phrases or patterns',
  )
  .refine((i) => i.then !== undefined || i.always_human, 'an intent needs `then` unless it is always_human');
export type IntentSpec = z.infer<typeof intent>;

const question = z
  .object({
    prompt: z.string().min(1),
    pattern: regex,
    reask: z.string().min(1),
    max_attempts: z.number().int().min(1).max(10).default(3),
    save_as: name.optional(),
    /** An NLU entity whose value answers the question at once (when it fits the pattern). */
    entity: z.string().min(1).optional(),
    uppercase: z.boolean().default(false),
    // biome-ignore lint/suspicious/noThenProperty: `then` is the flow file's own key (what a button or intent leads to)
    then: stepSchema,
    on_fail: stepSchema.optional(),
  })
  .strict();
export type QuestionSpec = z.infer<typeof question>;

const toggle = { enabled: z.boolean().default(true), priority: priority.optional() };
const triggers = z
  .object({
    explicit_request: z
      .object({
        ...toggle,
        keywords: z.array(z.string().min(1)).default(['agent', 'human', 'person', 'operator', 'representative']),
        phrases: z.array(z.string().min(1)).default(['someone real', 'real person', 'talk to someone', 'speak to someone']),
        examples: examplesSchema,
      })
      .strict()
      .prefault({}),
    quick_reply: z.object(toggle).strict().prefault({}),
    repeated_fallback: z
      .object({ ...toggle, count: z.number().int().min(1).default(2) })
      .strict()
      .prefault({}),
    negative_sentiment: z
      .object({ ...toggle, count: z.number().int().min(1).default(2) })
      .strict()
      .prefault({}),
    contact_tag: z
      .object({ ...toggle, tags: z.array(z.string().min(1)).default(['vip']) })
      .strict()
      .prefault({}),
    always_human: z.object(toggle).strict().prefault({}),
  })
  .strict()
  .prefault({});

const closedPolicy = z.enum(['queue', 'take_message', 'continue']);

const escalation = z
  .object({
    priority: priority.default('medium'),
    tags: z.array(z.string().min(1)).default([]),
    triggers,
    cancel: z
      .object({
        enabled: z.boolean().default(true),
        phrases: z.array(z.string().min(1)).default(['never mind', 'nevermind', 'cancel', 'forget it']),
        examples: examplesSchema,
      })
      .strict()
      .prefault({}),
    when_closed: closedPolicy.default('queue'),
    when_no_agents: z.union([closedPolicy, z.literal('escalate')]).default('escalate'),
    texts: outcomeTextsSchema,
  })
  .strict()
  .prefault({});

const businessHours = z
  .object({
    // Unset: the conversation's language is the locale of dates, weekdays and times.
    locale: z
      .string()
      .optional()
      .refine((l) => {
        if (l === undefined) return true;
        try {
          return Intl.DateTimeFormat.supportedLocalesOf([l]).length > 0;
        } catch {
          return false;
        }
      }, 'not a locale this runtime knows'),
    today: z.string().default('today'),
    tomorrow: z.string().default('tomorrow'),
    at: z.string().default('at'),
    open: z.string().default("We're open until {until}."),
    open_around_the_clock: z.string().default("We're open around the clock."),
    closed: z.string().default("We're closed right now. We're back {back}."),
    unknown: z.string().default("I can't see our opening hours right now."),
  })
  .strict()
  .prefault({});

const conversation = z
  .object({
    new_after_idle_minutes: z.number().int().min(1).default(1440),
    handover_grace_minutes: z.number().int().min(0).default(5),
    stale_click_minutes: z.number().int().min(1).default(1440),
    sms_hint: z.string().default('Reply with a number.'),
    stale_click: z.string().min(1).default("That option is no longer available. Here's what I can help with now:"),
    question_cancelled: z.string().min(1).default('OK, let us leave that. What else can I help with?'),
    /**
     * A customer message older than the bridge's maximum reply age (after downtime): `apologize` answers the first
     * one of the backlog with `late_apology` (and the main menu) and takes the rest in silently; `people` hands the
     * contact to people.
     */
    late_reply: z.enum(['apologize', 'people']).default('apologize'),
    late_apology: z.string().min(1).default('Sorry for the slow answer: we could not reply sooner. How can I help you now?'),
    note_max_bytes: z.number().int().min(512).max(65536).default(4096),
    transcript_max_lines: z.number().int().min(2).max(500).default(60),
  })
  .strict()
  .prefault({});

export const flowFileSchema = z
  .object({
    version: z.literal(1).default(1),
    languages,
    survey,
    nlu,
    greeting: textWithMenu,
    fallback: textWithMenu,
    menus: z.record(name, menu).default({}),
    intents: z.record(name, intent).default({}),
    questions: z.record(name, question).default({}),
    escalation,
    business_hours: businessHours,
    conversation,
  })
  .strict();
export type Flows = z.infer<typeof flowFileSchema> & {
  /** The texts of the languages other than the default, set by the loader (see localized-texts.ts). */
  readonly translations?: Translations | undefined;
};
