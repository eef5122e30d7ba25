// Shared fixtures for the brain's tests: the shipped flow file, the simulator's seed data, and a chat driver.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { decide, decisionSchema, parseFlows } from '../../src/bot/index.js';
import type {
  Action,
  BotEvent,
  BusinessHoursSchedule,
  Button,
  CannedResponse,
  Channel,
  Decision,
  DecideInput,
  DialogState,
  Flows,
  NluReading,
  TranscriptLine,
} from '../../src/bot/index.js';

export const flowText = readFileSync(new URL('../../config/flows.yaml', import.meta.url), 'utf8');
export const defaultFlows: Flows = parseFlows(flowText, 'config/flows.yaml');

export const B1: Button = { id: 'b1', title: 'Opening hours' };
export const B2: Button = { id: 'b2', title: 'Order status' };
export const B3: Button = { id: 'b3', title: 'Talk to an agent' };
export const mainMenu: CannedResponse = {
  id: 'cr-main',
  name: 'Main menu',
  type: 'buttons',
  message: 'How can we help?',
  data: { buttons: [B1, B2, B3] },
};

export const supportDesk: BusinessHoursSchedule = {
  id: 'bh1',
  name: 'Support desk',
  timezone: 'Europe/Brussels',
  periods: [1, 2, 3, 4, 5].map((d) => ({ dayofweek: d, start: '0900', end: '1700' })),
  users: { total: 2, available: 1, busy: 1, unavailable: 0 },
};

/** Monday 23 November 2026, 10:00 in Brussels (CET, UTC+1). */
export const MONDAY_OPEN = Date.parse('2026-11-23T09:00:00Z');
/** Saturday 21 November 2026, 13:00 in Brussels. */
export const SATURDAY_CLOSED = Date.parse('2026-11-21T12:00:00Z');

export interface ChatOptions {
  flows?: Flows;
  channel?: Channel;
  name?: string;
  tags?: string[];
  start?: number;
  hours?: DecideInput['hours'];
  canned?: CannedResponse[];
  languageGuesser?: DecideInput['languageGuesser'];
}

/** Drives one conversation through decide(), a minute per turn, checking every decision against the schema. */
export class Chat {
  state: DialogState | undefined;
  now: number;
  transcript: TranscriptLine[] = [];
  private seq = 0;

  constructor(readonly opts: ChatOptions = {}) {
    this.now = opts.start ?? MONDAY_OPEN;
  }

  /** Moves the conversation's clock to `ms` (chainable inside a scripted run). */
  at(ms: number): this {
    this.now = ms;
    return this;
  }

  event(event: BotEvent, extra: Partial<DecideInput> = {}): Action[] {
    const d: Decision = decide({
      flows: this.opts.flows ?? defaultFlows,
      event,
      conversation: this.state,
      contact: { name: this.opts.name ?? 'Ann', tags: this.opts.tags ?? [] },
      channel: this.opts.channel ?? 'whatsapp',
      now: this.now,
      hours: this.opts.hours ?? { schedule: supportDesk },
      transcript: this.transcript,
      cannedResponses: this.opts.canned ?? [mainMenu],
      ...(this.opts.languageGuesser ? { languageGuesser: this.opts.languageGuesser } : {}),
      ...extra,
    });
    expect(decisionSchema.safeParse(d).success).toBe(true);
    this.state = d.state;
    for (const a of d.actions) if (a.type === 'reply') this.transcript.push({ at: this.now, from: 'bot', text: a.text });
    this.now += 60_000;
    return d.actions;
  }

  say(
    text: string,
    extra: { sentiment?: string; clicked?: Button[]; owner?: 'bot' | 'agents'; nlu?: NluReading | undefined } = {},
  ): Action[] {
    this.transcript.push({ at: this.now, from: 'customer', text });
    const { owner, ...rest } = extra;
    return this.event({ kind: 'message', mentionId: `m${++this.seq}`, text, ...rest }, owner ? { owner } : {});
  }

  click(button: Button): Action[] {
    return this.say('', { clicked: [button] });
  }
}

export const replies = (actions: Action[]): string[] => actions.flatMap((a) => (a.type === 'reply' ? [a.text] : []));
export const kinds = (actions: Action[]): string[] => actions.map((a) => a.type);
export const escalation = (actions: Action[]): Extract<Action, { type: 'escalate' }> | undefined =>
  actions.find((a): a is Extract<Action, { type: 'escalate' }> => a.type === 'escalate');
