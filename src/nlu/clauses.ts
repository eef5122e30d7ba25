// A message in its clauses: sentences, and the parts a comma, a semicolon or "but" / "maar" / "mais" separates.
// Long messages hide what is wanted among greetings, context and politeness ("Hello, I bought ... last month,
// could you tell me where it is?"); a thanks may come with a question ("thanks, but where is my order?"). The
// reader classifies each clause and combines them (embedded-nlu.ts).

const SPLIT = /[.!?;,\n]+|\s(?:but|however|anyway|also|maar|echter|trouwens|ook nog|mais|cependant|sinon|par contre)\s/giu;
/** A joining word a clause starts with ("and we'd like our money back"), which the classifier reads as noise. */
const LEADING = /^(?:and|so|then|en|dus|et|alors|donc)\s+/iu;
/** A clause needs this many words to be read on its own. */
const MIN_WORDS = 2;

/** The clauses of a text with at least two words each, in order (one clause: the text has no parts). */
export function clausesOf(text: string): string[] {
  return text
    .split(SPLIT)
    .map((c) => c.trim().replace(LEADING, ''))
    .filter((c) => (c.match(/[\p{L}\p{N}]+/gu) ?? []).length >= MIN_WORDS);
}

export interface Ranked {
  intent: string;
  score: number;
}

/** One clause's reading, best first, and how many words the clause has. */
export interface ClauseReading {
  ranked: readonly Ranked[];
  words: number;
}

/** From this many words a message is long: its clauses vote, the later and longer ones more. */
export const LONG_WORDS = 16;
/** A clause's intent counts at this confidence. */
const CLAUSE_MIN = 0.7;
/** A clause asking for a person counts at this confidence (it was checked on its content words). */
const PERSON_CLAUSE_MIN = 0.8;
const WHOLE_MIN = 0.5;
/** A clause's vote grows with its words up to this many (a bare "can you check?" says little). */
const VOTE_WORDS = 8;

export const wordCount = (text: string): number => (text.match(/[\p{L}\p{N}]+/gu) ?? []).length;

/**
 * A long message's clauses vote: each clause that says what is wanted gives its intent its confidence, more for a
 * longer clause and for a later one (the context comes first, the request last). The intent with most wins; its
 * surest clause's reading is returned.
 */
function longReading(said: readonly ClauseReading[], all: readonly ClauseReading[]): readonly Ranked[] {
  const votes = new Map<string, number>();
  const last = Math.max(1, all.length - 1);
  for (const c of said) {
    const top = c.ranked[0];
    if (!top) continue;
    const weight = (1 + all.indexOf(c) / last) * Math.min(c.words, VOTE_WORDS);
    votes.set(top.intent, (votes.get(top.intent) ?? 0) + top.score * weight);
  }
  const [intent] = [...votes].reduce((a, b) => (b[1] >= a[1] ? b : a));
  const mine = said.filter((c) => c.ranked[0]?.intent === intent);
  return mine.reduce((a, b) => ((b.ranked[0]?.score ?? 0) >= (a.ranked[0]?.score ?? 0) ? b : a)).ranked;
}

/**
 * Combines the reading of the whole message with those of its clauses (each best first): a clause asking for a
 * person wins; in a long message the clauses that say what is wanted vote; in a shorter one, a clause's intent
 * replaces a whole reading that is only a thanks, a greeting or unsure ("thanks, but where is my order?").
 * `minor`: what yields to another intent in the same message (none, thanks, never mind).
 */
export function combineClauses(
  whole: readonly Ranked[],
  parts: readonly ClauseReading[],
  options: { long: boolean; person: string; minor: ReadonlySet<string> },
): Ranked[] {
  const w = whole[0];
  if (parts.length === 0 || w?.intent === options.person) return [...whole];
  const person = parts.find((p) => p.ranked[0]?.intent === options.person && p.ranked[0].score >= PERSON_CLAUSE_MIN);
  if (person) return [...person.ranked];
  const said = parts.filter((p) => {
    const top = p.ranked[0];
    return top !== undefined && !options.minor.has(top.intent) && top.intent !== options.person && top.score >= CLAUSE_MIN;
  });
  if (said.length === 0) return [...whole];
  if (options.long) return [...longReading(said, parts)];
  if (w && !options.minor.has(w.intent) && w.score >= WHOLE_MIN) return [...whole];
  // The surest clause; on a tie, the later one.
  return [...said.reduce((a, b) => ((b.ranked[0]?.score ?? 0) >= (a.ranked[0]?.score ?? 0) ? b : a)).ranked];
}
