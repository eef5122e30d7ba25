// Runs a flow test file through the brain as the bridge drives it: the same flows, the same reading of each message
// (the NLU server when configured, then the embedded model trained from the flows), the same decide(); in process,
// with a fixed clock in opening hours, no service and no store.
import {
  decide,
  type Action,
  type BusinessHoursSchedule,
  type DialogState,
  type Flows,
  type LanguageGuesser,
  type TranscriptLine,
} from '../bot/index.js';
import type { FlowTestFile, FlowTestTurn } from '../bot/flow-test-file.js';
import { expectedHandover, type CheckedTurn } from '../bot/flow-test-score.js';
import { turnOutcome } from '../bot/flow-test-verdict.js';
import type { Understander } from '../nlu/index.js';

/** Monday 23 November 2026, 10:00 in Brussels: open, so a hand-over goes to people at once. */
const OPEN_MONDAY = Date.parse('2026-11-23T09:00:00Z');
const TURN_MS = 60_000;
const OPEN_HOURS: BusinessHoursSchedule = {
  id: 'flow-tests',
  name: 'Flow tests',
  timezone: 'Europe/Brussels',
  periods: [1, 2, 3, 4, 5].map((d) => ({ dayofweek: d, start: '0900', end: '1700' })),
  users: { total: 1, available: 1, busy: 0, unavailable: 0 },
};

export interface FlowTestRunInput {
  flows: Flows;
  tests: FlowTestFile;
  understander: Understander | undefined;
  languageGuesser: LanguageGuesser | undefined;
  /** Called with each message's reading time in ms (for the bench). */
  onRead?: (ms: number) => void;
}

/** Every turn of the file checked: first messages each in a new conversation, dialogues turn by turn. */
export async function runFlowTests(input: FlowTestRunInput): Promise<CheckedTurn[]> {
  const alwaysHuman = new Set(Object.entries(input.flows.intents).flatMap(([name, i]) => (i.always_human ? [name] : [])));
  const checked: CheckedTurn[] = [];
  const expect = (turn: FlowTestTurn, lang: string | undefined) => ({
    ...turn,
    lang: lang ?? input.flows.languages.default,
    handover: expectedHandover(turn, alwaysHuman),
  });
  for (const m of input.tests.messages) {
    const turn: FlowTestTurn = { say: m.text, intent: m.intent, lang: m.lang, handover: m.handover, entities: m.entities };
    const conversation = new TestConversation(input);
    checked.push({ source: 'message', category: m.category, expected: expect(turn, m.lang), got: await conversation.say(m.text) });
  }
  for (const d of input.tests.dialogues) {
    const conversation = new TestConversation(input);
    for (const t of d.turns) checked.push({ source: d.name, expected: expect(t, t.lang ?? d.lang), got: await conversation.say(t.say) });
  }
  return checked;
}

class TestConversation {
  private state: DialogState | undefined;
  private now = OPEN_MONDAY;
  private seq = 0;
  private readonly transcript: TranscriptLine[] = [];

  constructor(private readonly input: FlowTestRunInput) {}

  async say(text: string) {
    const started = performance.now();
    const nlu = this.input.understander ? await this.input.understander.parse(text) : undefined;
    this.input.onRead?.(performance.now() - started);
    this.transcript.push({ at: this.now, from: 'customer', text });
    const before = this.state;
    const decision = decide({
      flows: this.input.flows,
      event: { kind: 'message', mentionId: `t${++this.seq}`, text, ...(nlu ? { nlu } : {}) },
      conversation: before,
      contact: { name: 'Ann', tags: [] },
      channel: 'web',
      now: this.now,
      hours: { schedule: OPEN_HOURS },
      transcript: this.transcript,
      ...(this.input.languageGuesser ? { languageGuesser: this.input.languageGuesser } : {}),
    });
    this.state = decision.state;
    for (const a of decision.actions as Action[]) if (a.type === 'reply') this.transcript.push({ at: this.now, from: 'bot', text: a.text });
    this.now += TURN_MS;
    return turnOutcome(this.input.flows, before, decision.actions, decision.state);
  }
}
