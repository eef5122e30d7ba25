// Small local types, structurally compatible with the Engage items the bridge reads (see engage-conventions.md).
// The brain imports nothing of ours outside src/bot/, so it defines what it needs here.

export { CHANNELS, type Channel } from '../shared/channels.js';

/** A quick reply as Engage sends and reports it (`buttons`, `clicked_buttons`). */
export interface Button {
  id: string;
  title: string;
  payload?: string;
}

/** A canned response from `settings/canned_responses`; menus use those of type `buttons`. */
export interface CannedResponse {
  id: string;
  name: string;
  type: 'buttons' | 'text' | 'csat' | 'nps';
  message?: string;
  data?: { buttons?: Button[] };
}

export interface SchedulePeriod {
  /** 0 = Sunday .. 6 = Saturday, in the schedule's time zone. */
  dayofweek: number;
  /** 'HHMM' local wall-clock time. */
  start: string;
  /** 'HHMM'; '2400' means midnight at the end of the day. */
  end: string;
}

export interface BusinessHoursSchedule {
  id: string | number;
  name: string;
  timezone: string;
  periods: SchedulePeriod[];
  is_active?: boolean;
  users?: { total?: number; available?: number; busy?: number; unavailable?: number };
}

export type Sentiment = 'positive' | 'neutral' | 'negative';

/** One line of the conversation as the bridge recorded it; `at` is epoch milliseconds. */
export interface TranscriptLine {
  at: number;
  from: 'customer' | 'bot' | 'agent';
  text: string;
}

export interface ContactInfo {
  name?: string | undefined;
  tags: string[];
  /** The contact's custom attributes; the flows may name one holding the contact's language. */
  attributes?: Readonly<Record<string, unknown>> | undefined;
}
