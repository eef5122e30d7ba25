import { z } from 'zod';

/**
 * The simulator's guess switches (issue 26): each breaks one thing the bridge assumes where `engage-api.md` is
 * silent, so a test can check that the bridge fails safe when the real service answers otherwise. All off by
 * default; `docs/simulator.md` ("Guesses") says which guess each one breaks.
 */
export const MENTION_LIST_PARAMS = ['filter', 'topic_ids', 'date_from', 'date_to', 'limit', 'sort'] as const;
export type MentionListParam = (typeof MENTION_LIST_PARAMS)[number];
export const PUBLISH_ANSWER_SHAPES = ['envelope', 'empty', 'array', 'id_only'] as const;
export const CANNED_TYPE_CASES = ['lower', 'upper', 'title'] as const;
export const WEEKDAY_NUMBERINGS = ['monday0', 'sunday0', 'monday1', 'sunday1'] as const;
export type WeekdayNumbering = (typeof WEEKDAY_NUMBERINGS)[number];
export const RATE_LIMIT_BODIES = ['envelope', 'text', 'empty'] as const;

export interface GuessRealism {
  /** Handover items show only `owner` (no `date` object). */
  handover_date_hidden: boolean;
  /** The account's own messages name the stream (profile), not the publishing user; publisher mentions carry no `user_id`. */
  echo_author_anonymous: boolean;
  /** Body of a 2xx `publisher/add` answer. */
  publish_answer_shape: (typeof PUBLISH_ANSWER_SHAPES)[number];
  /** `GET inbox/mentions` ignores these parameters (an ignored `sort` reads newest first). */
  mentions_ignore: MentionListParam[];
  /** `[]` for empty objects, numeric `unique_id`, string timestamps, nameless tag objects, id-less clicked buttons, string `meta.code`. */
  loose_types: boolean;
  /** Every mention's `source.thread_id` is the id of its thread's root mention. */
  thread_id_root: boolean;
  /** Topics are listed this many per page (0: the request's `limit`). */
  topics_page_size: number;
  /** DELETE requests read only query parameters. */
  delete_body_ignored: boolean;
  /** Case of canned-response `type` values. */
  canned_type_case: (typeof CANNED_TYPE_CASES)[number];
  /** Business-hours weekday numbering (`sunday0`: 0 = Sunday .. 6 = Saturday, the simulator's own). */
  weekday_numbering: WeekdayNumbering;
  /** Body of the documented 400 rate-limit refusal. */
  rate_limit_body: (typeof RATE_LIMIT_BODIES)[number];
  /** `POST`/`GET inbox/handover` on a contact the service has never handed over answers 404. */
  handover_404_new_contacts: boolean;
}

export const NO_GUESS_REALISM: GuessRealism = {
  handover_date_hidden: false,
  echo_author_anonymous: false,
  publish_answer_shape: 'envelope',
  mentions_ignore: [],
  loose_types: false,
  thread_id_root: false,
  topics_page_size: 0,
  delete_body_ignored: false,
  canned_type_case: 'lower',
  weekday_numbering: 'sunday0',
  rate_limit_body: 'envelope',
  handover_404_new_contacts: false,
};

/** The control API's keys for them (`POST /_sim/realism`), each optional. */
export const guessRealismShape = {
  handover_date_hidden: z.boolean().optional(),
  echo_author_anonymous: z.boolean().optional(),
  publish_answer_shape: z.enum(PUBLISH_ANSWER_SHAPES).optional(),
  mentions_ignore: z.array(z.enum(MENTION_LIST_PARAMS)).max(MENTION_LIST_PARAMS.length).optional(),
  loose_types: z.boolean().optional(),
  thread_id_root: z.boolean().optional(),
  topics_page_size: z.number().int().min(0).max(200).optional(),
  delete_body_ignored: z.boolean().optional(),
  canned_type_case: z.enum(CANNED_TYPE_CASES).optional(),
  weekday_numbering: z.enum(WEEKDAY_NUMBERINGS).optional(),
  rate_limit_body: z.enum(RATE_LIMIT_BODIES).optional(),
  handover_404_new_contacts: z.boolean().optional(),
};

/** A canned-response type in the configured case. */
export function cannedTypeCase(type: string, c: GuessRealism['canned_type_case']): string {
  if (c === 'upper') return type.toUpperCase();
  if (c === 'title') return type.charAt(0).toUpperCase() + type.slice(1).toLowerCase();
  return type;
}

/** A weekday (0 = Sunday .. 6 = Saturday, the simulator's own) in the configured numbering. */
export function weekdayOut(day: number, n: WeekdayNumbering): number {
  const mondayBased = n.startsWith('monday') ? (day + 6) % 7 : day;
  return mondayBased + (n.endsWith('1') ? 1 : 0);
}

/** A weekday written in the configured numbering back to 0 = Sunday .. 6 = Saturday. */
export function weekdayIn(value: number, n: WeekdayNumbering): number {
  const zeroBased = value - (n.endsWith('1') ? 1 : 0);
  return n.startsWith('monday') ? (zeroBased + 1) % 7 : zeroBased;
}
