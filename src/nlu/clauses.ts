// A message in its clauses: sentences, and the parts a comma, a semicolon or "but" / "maar" / "mais" separates.
// Long messages hide what is wanted among greetings, context and politeness ("Hello, I bought ... last month,
// could you tell me where it is?"); a thanks may come with a question ("thanks, but where is my order?"). The
// reader classifies each clause and combines them (embedded-nlu.ts).

const SPLIT = /[.!?;,\n]+|\s(?:but|however|anyway|also|maar|echter|trouwens|ook nog|mais|cependant|sinon|par contre)\s/giu;
/** A clause needs this many words to be read on its own. */
const MIN_WORDS = 2;

/** The clauses of a text with at least two words each, in order (one clause: the text has no parts). */
export function clausesOf(text: string): string[] {
  return text
    .split(SPLIT)
    .map((c) => c.trim())
    .filter((c) => (c.match(/[\p{L}\p{N}]+/gu) ?? []).length >= MIN_WORDS);
}

export interface Ranked {
  intent: string;
  score: number;
}

/** From this many words a message is long: its last clause that says what is wanted decides. */
export const LONG_WORDS = 16;
/** A clause's intent counts at this confidence. */
const CLAUSE_MIN = 0.7;
/** A clause asking for a person counts at this confidence (it was checked on its content words). */
const PERSON_CLAUSE_MIN = 0.8;
const WHOLE_MIN = 0.5;

export const wordCount = (text: string): number => (text.match(/[\p{L}\p{N}]+/gu) ?? []).length;

/**
 * Combines the reading of the whole message with those of its clauses (each best first): a clause asking for a
 * person wins; a long message is about its last clause that says what is wanted (the context comes first); in a
 * shorter one, a clause's intent replaces a whole reading that is only a thanks, a greeting or unsure ("thanks, but
 * where is my order?"). `minor`: what yields to another intent in the same message (none, thanks, never mind).
 */
export function combineClauses(
  whole: readonly Ranked[],
  parts: ReadonlyArray<readonly Ranked[]>,
  options: { long: boolean; person: string; minor: ReadonlySet<string> },
): Ranked[] {
  const w = whole[0];
  if (parts.length === 0 || w?.intent === options.person) return [...whole];
  const person = parts.find((p) => p[0]?.intent === options.person && p[0].score >= PERSON_CLAUSE_MIN);
  if (person) return [...person];
  const said = parts.filter(
    (p) => p[0] !== undefined && !options.minor.has(p[0].intent) && p[0].intent !== options.person && p[0].score >= CLAUSE_MIN,
  );
  if (said.length === 0) return [...whole];
  if (options.long) return [...(said[said.length - 1] ?? whole)];
  if (w && !options.minor.has(w.intent) && w.score >= WHOLE_MIN) return [...whole];
  // The surest clause; on a tie, the later one.
  return [...said.reduce((a, b) => ((b[0]?.score ?? 0) >= (a[0]?.score ?? 0) ? b : a))];
}
