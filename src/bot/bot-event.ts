import type { HandoverTarget } from '../shared/owner.js';
// The events the bridge feeds the brain, and everything it passes in with them.
import type { Flows } from './flow-schema.js';
import type { DialogState } from './dialog-state.js';
import type { LanguageGuesser } from './language-guesser.js';
import type { BusinessHoursSchedule, Button, CannedResponse, Channel, ContactInfo, TranscriptLine } from './types.js';

export type BotEvent =
  /** A customer's message (the mention), with the quick replies it clicked and the service's sentiment. */
  | {
      kind: 'message';
      mentionId: string;
      text: string;
      clicked?: Button[];
      sentiment?: string | number | null;
      /** The mention's own language field, when the service sends one. */
      language?: string | null | undefined;
      /** The NLU's reading of the text (the embedded model's, or a configured server's that answered in time). */
      nlu?: NluReading | undefined;
      /** The message waited longer than the maximum reply age (measured on the service's clock) before this turn. */
      late?: boolean | undefined;
    }
  /** Agents gave the conversation back (resolved, idle, a manager's command, ...). */
  | { kind: 'returned-to-bot'; reason: string }
  /** A person took the conversation (reply seen, or the service reports agents as owner). */
  | { kind: 'agent-took-over' }
  /** The scheduler releases a queued escalation: opening time (or agents available again). */
  | { kind: 'opening-time' }
  /** The bridge could not hand over (the handover call failed): the bot owns the conversation again. */
  | { kind: 'escalation-failed'; error?: string };

/** The NLU's reading of a message: read outside the brain (the embedded model, or a server) and passed in. */
export interface NluReading {
  intent: string;
  confidence: number;
  entities: Array<{ entity: string; value: string }>;
  /** `embedded`: the model trained from these flows (its names are the flows' own); else a server (mapped by `nlu.intents`). */
  source?: 'embedded' | 'server' | undefined;
  /** The second likeliest intent. */
  runnerUp?: { intent: string; confidence: number } | undefined;
  /** How much of the text each language's examples know, 0 to 1. */
  languages?: Readonly<Record<string, number>> | undefined;
  /** The tone of the customer's own words. */
  sentiment?: 'negative' | 'neutral' | 'positive' | undefined;
}

export interface HoursInput {
  schedule?: BusinessHoursSchedule | undefined;
  /** The service's live `is_active`; wins over the calculator when given. */
  isActive?: boolean | undefined;
  /** Agents available now (a count or a yes/no); defaults to the schedule's `users.available`. */
  agentsAvailable?: number | boolean | undefined;
}

export interface DecideInput {
  flows: Flows;
  event: BotEvent;
  /** The state the brain returned last time; undefined (or unreadable) starts a new conversation. */
  conversation: DialogState | undefined;
  contact: ContactInfo;
  channel: Channel;
  now: Date | number;
  hours?: HoursInput | undefined;
  /** The conversation as recorded by the bridge (any length; the brain windows it from the stretch start). */
  transcript?: readonly TranscriptLine[] | undefined;
  /** Canned responses of the account, so menus can name theirs by name or id. */
  cannedResponses?: readonly CannedResponse[] | undefined;
  /** Who owns the contact as the bridge knows it; corrects the brain's picture when they differ. */
  owner?: HandoverTarget | undefined;
  /**
   * The channel's customer-service window is closed (WhatsApp, Viber: 24 h after the customer's last message): no
   * free-form message may go out; a customer message the bot would answer goes to people instead.
   */
  serviceWindowClosed?: boolean | undefined;
  /**
   * The language detector (`loadLanguageGuesser`), for a customer message whose language nothing else tells;
   * without it no language is guessed from the text (the conversation stays in the default until one is known).
   */
  languageGuesser?: LanguageGuesser | undefined;
}
