// Scores checked turns of a flow test file: per intent, language and category, requests for a person, reply
// language (short messages apart), entities and whole dialogues, against the file's thresholds.
import type { FlowTestThresholds, FlowTestTurn } from './flow-test-file.js';
import type { TurnOutcome } from './flow-test-verdict.js';

export interface CheckedTurn {
  /** `message` for a first message; else the dialogue's name. */
  source: 'message' | string;
  category?: string | undefined;
  expected: FlowTestTurn & { lang: string; handover: boolean | undefined };
  got: TurnOutcome;
}

export interface Share {
  right: number;
  of: number;
  share: number;
}

export interface FlowTestScore {
  intent: Share;
  person_recall: Share;
  person_precision: Share;
  language: Share;
  /** Reply language for messages under 20 letters. */
  language_short: Share;
  entities: Share;
  dialogues: Share;
  byIntent: Record<string, Share>;
  byLanguage: Record<string, Share>;
  byCategory: Record<string, Share>;
  /** Expected → got intent, with how many times, most frequent first. */
  confusion: Array<{ expected: string; got: string; count: number }>;
  failures: Array<{ source: string; text: string; problems: string[] }>;
  /** Each threshold the score is below, `name: measured < threshold`. */
  below: string[];
}

const share = (right: number, of: number): Share => ({ right, of, share: of === 0 ? 1 : right / of });
const LETTER = /\p{L}/gu;

/** What is wrong with one turn (empty: right). */
export function turnProblems(t: CheckedTurn): string[] {
  const problems: string[] = [];
  const { expected: e, got } = t;
  if (e.intent !== undefined && got.intent !== e.intent) problems.push(`intent ${got.intent}, expected ${e.intent}`);
  if (e.handover !== undefined && got.handover !== e.handover) problems.push(got.handover ? 'handed over' : 'not handed over');
  if (got.language !== e.lang) problems.push(`answered in ${got.language}, expected ${e.lang}`);
  for (const [name, value] of Object.entries(e.entities ?? {}))
    if (got.entities[name] !== value) problems.push(`${name} ${got.entities[name] ?? '(none)'}, expected ${value}`);
  return problems;
}

/** The default outcome of a turn when the file does not say: people for `human` and always-human intents; none for `none`. */
export function expectedHandover(turn: FlowTestTurn, alwaysHuman: ReadonlySet<string>): boolean | undefined {
  if (turn.handover !== undefined) return turn.handover;
  if (turn.intent === 'human' || (turn.intent !== undefined && alwaysHuman.has(turn.intent))) return true;
  // A turn that gives a value the flow goes on with may end with people: checked only where the file says so.
  if (turn.entities && Object.keys(turn.entities).length > 0) return undefined;
  return turn.intent === undefined ? undefined : false;
}

export function scoreFlowTests(turns: readonly CheckedTurn[], thresholds: FlowTestThresholds): FlowTestScore {
  const messages = turns.filter((t) => t.source === 'message');
  const labelled = messages.filter((t) => t.expected.intent !== undefined);
  const group = (key: (t: CheckedTurn) => string | undefined, of: readonly CheckedTurn[]): Record<string, Share> => {
    const out: Record<string, { right: number; of: number }> = {};
    for (const t of of) {
      const k = key(t);
      if (k === undefined) continue;
      const g = out[k] ?? { right: 0, of: 0 };
      out[k] = g;
      g.of += 1;
      if (turnProblems(t).length === 0) g.right += 1;
    }
    return Object.fromEntries(Object.entries(out).map(([k, g]) => [k, share(g.right, g.of)]));
  };
  const askedPerson = turns.filter((t) => t.expected.intent === 'human');
  const gavePerson = turns.filter((t) => t.got.intent === 'human');
  const entityChecks = turns.flatMap((t) => Object.entries(t.expected.entities ?? {}).map(([k, v]) => t.got.entities[k] === v));
  const short = messages.filter((t) => (t.expected.say.match(LETTER) ?? []).length < 20);
  const dialogues = new Map<string, boolean>();
  for (const t of turns)
    if (t.source !== 'message') dialogues.set(t.source, (dialogues.get(t.source) ?? true) && turnProblems(t).length === 0);
  const confusion = new Map<string, number>();
  for (const t of labelled)
    if (t.got.intent !== t.expected.intent) {
      const k = `${t.expected.intent} → ${t.got.intent}`;
      confusion.set(k, (confusion.get(k) ?? 0) + 1);
    }
  const score: Omit<FlowTestScore, 'below'> = {
    intent: share(labelled.filter((t) => t.got.intent === t.expected.intent).length, labelled.length),
    person_recall: share(askedPerson.filter((t) => t.got.handover).length, askedPerson.length),
    person_precision: share(gavePerson.filter((t) => t.expected.intent === 'human').length, gavePerson.length),
    language: share(turns.filter((t) => t.got.language === t.expected.lang).length, turns.length),
    language_short: share(short.filter((t) => t.got.language === t.expected.lang).length, short.length),
    entities: share(entityChecks.filter(Boolean).length, entityChecks.length),
    dialogues: share([...dialogues.values()].filter(Boolean).length, dialogues.size),
    byIntent: group((t) => t.expected.intent, labelled),
    byLanguage: group((t) => t.expected.lang, messages),
    byCategory: group((t) => t.category, messages),
    confusion: [...confusion]
      .map(([k, count]) => {
        const [expected = '', got = ''] = k.split(' → ');
        return { expected, got, count };
      })
      .sort((a, b) => b.count - a.count),
    failures: turns.flatMap((t) => {
      const problems = turnProblems(t);
      return problems.length > 0 ? [{ source: t.source, text: t.expected.say, problems }] : [];
    }),
  };
  const below = Object.entries(thresholds).flatMap(([name, min]) => {
    const measured = (score as unknown as Record<string, Share>)[name]?.share;
    return min !== undefined && measured !== undefined && measured < min ? [`${name}: ${measured.toFixed(3)} < ${min}`] : [];
  });
  return { ...score, below };
}
