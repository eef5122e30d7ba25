// Intent matching by keywords, phrases and regular expressions, case- and accent-insensitive.
import type { Flows, IntentSpec } from './flow-schema.js';
import { foldText, stripAccents } from '../shared/fold-text.js';
import { type LinearPattern, linearPattern } from './linear-pattern.js';

export interface IntentMatch {
  name: string;
  /** The words of the customer's text that matched. */
  words: string;
  /** Matched by a pattern: an exact override, it wins over the NLU. */
  exact?: boolean;
}

const compiled = new WeakMap<IntentSpec, LinearPattern[]>();

function patternsOf(intent: IntentSpec): LinearPattern[] {
  let res = compiled.get(intent);
  if (!res) {
    res = intent.patterns.map(linearPattern);
    compiled.set(intent, res);
  }
  return res;
}

/** The first keyword or phrase found in the text, as written in the flow file. */
export function findWords(text: string, words: readonly string[]): string | undefined {
  return wordsIn(` ${foldText(text)} `, words);
}

/**
 * Each list's words folded, with a space on each side (`''` for a word that folds to nothing): the flows' lists are
 * read for every message, and folding and padding each word again cost a string per word per message (issue 28).
 */
const paddedLists = new WeakMap<readonly string[], readonly string[]>();

function paddedOf(words: readonly string[]): readonly string[] {
  let padded = paddedLists.get(words);
  if (padded === undefined) {
    padded = words.map((w) => {
      const phrase = foldText(w);
      return phrase === '' ? '' : ` ${phrase} `;
    });
    paddedLists.set(words, padded);
  }
  return padded;
}

/** `padded`: the folded text with a space on each side, so a phrase is found as whole words by one `includes`. */
function wordsIn(padded: string, words: readonly string[]): string | undefined {
  const phrases = paddedOf(words);
  for (let i = 0; i < words.length; i++) {
    const phrase = phrases[i] as string;
    if (phrase !== '' && padded.includes(phrase)) return words[i];
  }
  return undefined;
}

/** Phrases, then keywords, in one list made once per owner (an intent, a trigger): read for every message. */
const joinedLists = new WeakMap<{ readonly phrases: readonly string[]; readonly keywords: readonly string[] }, readonly string[]>();

export function phrasesAndKeywords(owner: {
  readonly phrases: readonly string[];
  readonly keywords: readonly string[];
}): readonly string[] {
  let words = joinedLists.get(owner);
  if (words === undefined) {
    words = [...owner.phrases, ...owner.keywords];
    joinedLists.set(owner, words);
  }
  return words;
}

/** The customer's text read once for every intent: accents stripped (for patterns) and folded (for words). */
interface ReadText {
  readonly text: string;
  readonly plain: string;
  readonly padded: string;
}

function matchOne(t: ReadText, intent: IntentSpec): { words: string; score: number } | undefined {
  for (const re of patternsOf(intent)) {
    // The text as written only when stripping its accents changed it: the same text twice gives the same answer.
    const m = re.exec(t.plain) ?? (t.plain === t.text ? null : re.exec(t.text));
    const words = m?.[0];
    if (words !== undefined) return { words, score: 3000 + words.length };
  }
  const phrase = wordsIn(t.padded, intent.phrases);
  if (phrase !== undefined) return { words: phrase, score: 2000 + phrase.length };
  const keyword = wordsIn(t.padded, intent.keywords);
  if (keyword !== undefined) return { words: keyword, score: 1000 + keyword.length };
  return undefined;
}

/**
 * The best matching intent: a pattern beats a phrase beats a keyword, a longer match wins, then file order. `except`:
 * an intent left out.
 */
export function matchIntent(flows: Flows, text: string, except?: string): IntentMatch | undefined {
  // Stripped and folded once here, not again for each intent (a message is matched against every intent).
  const read: ReadText = { text, plain: stripAccents(text), padded: ` ${foldText(text)} ` };
  let best: (IntentMatch & { score: number }) | undefined;
  for (const [name, intent] of Object.entries(flows.intents)) {
    if (name === except) continue;
    const m = matchOne(read, intent);
    if (m && (!best || m.score > best.score)) best = { name, ...m };
  }
  return best && { name: best.name, words: best.words, ...(best.score >= 3000 ? { exact: true } : {}) };
}

/** The confidence at which a reading counts: the embedded model's threshold, or the server's. */
export function nluThreshold(flows: Flows, reading: { source?: string | undefined }): number {
  return reading.source === 'embedded' ? flows.nlu.embedded.threshold : flows.nlu.threshold;
}

/** The intent the NLU reading names (mapped by the flows, or by the same name), when confident enough. */
export function nluIntent(
  flows: Flows,
  reading: { intent: string; confidence: number; source?: string | undefined } | undefined,
  text: string,
): IntentMatch | undefined {
  if (!reading || !(reading.confidence >= nluThreshold(flows, reading))) return undefined;
  const name = flows.nlu.intents[reading.intent] ?? (Object.hasOwn(flows.intents, reading.intent) ? reading.intent : undefined);
  return name !== undefined && flows.intents[name] ? { name, words: text } : undefined;
}
