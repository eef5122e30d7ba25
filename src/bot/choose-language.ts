// The conversation's language: the customer's own choice, the contact's attribute, the mention's language,
// a guess from a long enough message, then the flows' default. Once chosen (other than by default) it is kept.
import type { Flows } from './flow-schema.js';
import type { LanguageGuesser } from './language-guesser.js';
import type { DialogState } from './dialog-state.js';
import type { ContactInfo } from './types.js';
import { isLanguageMenu } from './language-names.js';

export type LanguageSource = NonNullable<DialogState['languageSource']>;

/** The default first, then the other declared languages. */
export function flowLanguages(flows: Flows): string[] {
  return [...new Set([flows.languages.default, ...flows.languages.supported])];
}

/** Whether a text may ever be guessed into a language: detection on, and two languages to tell apart. */
export function mayGuessLanguage(flows: Flows): boolean {
  return flows.languages.detect && flowLanguages(flows).length >= 2;
}

/** A declared language matching a code as services and people write it: `nl`, `NL`, `nl-BE`, `nl_BE`. */
export function normalizeLanguage(value: unknown, declared: readonly string[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim().replace('_', '-').toLowerCase();
  if (!v) return undefined;
  return declared.find((l) => l.toLowerCase() === v) ?? declared.find((l) => l.toLowerCase() === v.split('-')[0]);
}

/** Letters and spaces only: digits, order numbers and emoji say nothing about the language. */
const letterCount = (text: string): number =>
  text
    .replace(/[^\p{L} ]+/gu, '')
    .replace(/ {2,}/g, ' ')
    .trim().length;

/** The text without words that hold a digit: "mijn bestelling GH-77120" is Dutch, but the detector reads "GH" as English. */
const withoutCodes = (text: string): string => text.replace(/[\p{L}\p{N}-]*\p{N}[\p{L}\p{N}-]*/gu, ' ');

// The detector's scores are not probabilities; on short mixed English ("Order 42 arrived broken") it guesses
// French at 0.06. A guess counts only when it is clear on its own and well ahead of the runner-up.
const MIN_ACCURACY = 0.15;
const MIN_LEAD = 3;

/**
 * The detector's guess among the declared languages, or undefined when the text is too short or unclear to tell, or
 * when there is no detector (as for a short text: the default language, and the next message may decide it).
 */
export function detectLanguage(
  text: string,
  declared: readonly string[],
  minChars: number,
  guess: LanguageGuesser | undefined,
): string | undefined {
  if (!guess || declared.length < 2 || letterCount(text) < minChars) return undefined;
  try {
    const [best, next] = guess(
      withoutCodes(text),
      declared.map((l) => l.split('-')[0] ?? l),
    );
    if (!best || best.accuracy < MIN_ACCURACY || (next && best.accuracy < MIN_LEAD * next.accuracy)) return undefined;
    return normalizeLanguage(best.lang, declared);
  } catch {
    return undefined;
  }
}

export interface LanguageClues {
  contact: ContactInfo;
  /** The mention's language field: a hint, never decisive against a long text. */
  mentionLanguage?: unknown;
  /** The customer's message, for the detector. */
  text?: string;
  /** What the customer wrote before in this conversation (oldest first), for a short message. */
  earlier?: readonly string[] | undefined;
  /**
   * The NLU's reading of the message, for its language scores (how much of it each language's examples know, 0 to 1).
   * They are read only where nothing before them decided (the embedded NLU computes them when first read).
   */
  nlu?: { readonly languages?: Readonly<Record<string, number>> | undefined } | undefined;
  /** The detector; without it nothing is guessed from the text. */
  guess?: LanguageGuesser | undefined;
}

// The NLU's scores (0 to 1) name a language when it is at least half sure, and clearly more than of any other.
const NLU_MIN = 0.5;
const NLU_LEAD = 0.1;

/** The language whose examples clearly know the message best ("bonjour", "medewerker?"), if one does. */
function fromNlu(scores: Readonly<Record<string, number>> | undefined, declared: readonly string[]): string | undefined {
  if (!scores) return undefined;
  const ranked = declared.map((l) => [l, scores[l] ?? scores[l.split('-')[0] ?? l] ?? 0] as const).sort((a, b) => b[1] - a[1]);
  const [best, next] = ranked;
  return best && best[1] >= NLU_MIN && best[1] - (next?.[1] ?? 0) >= NLU_LEAD ? best[0] : undefined;
}

/**
 * Under a language menu the customer may answer it by writing: in one of its languages other than the one spoken so
 * far (clearly: a long text, or words the examples know in one language), or, having named one when asking ("kunnen we
 * in het Frans verder?"), in anything not clearly another. That is their choice, as a click on its button would be.
 */
function menuAnswered(flows: Flows, state: DialogState, writtenIn: () => string | undefined): string | undefined {
  const asked = state.languageAsked;
  delete state.languageAsked;
  const offer = state.offer;
  if (!offer || !isLanguageMenu(flows, offer.menu)) return undefined;
  const offered = (flows.menus[offer.menu]?.buttons ?? []).map((b) => b.then.language);
  const written = writtenIn();
  if (written !== undefined && offered.includes(written) && written !== state.language) return written;
  if (asked !== undefined && offered.includes(asked) && (written === undefined || written === asked)) return asked;
  return undefined;
}

/**
 * Sets the state's language for this turn. The customer's own choice wins; a long, clear message decides (over the
 * contact's remembered language and the service's field, and over a language chosen before); a short one never flips
 * a language chosen from a long text (one guessed from short messages alone is judged again with all the customer
 * wrote), and where none is chosen yet it is judged with the customer's text so far, the NLU's language
 * scores, the contact's remembered language and the service's field, in that order; else the default.
 */
export function chooseLanguage(flows: Flows, state: DialogState, clues: LanguageClues): string {
  const declared = flowLanguages(flows);
  const set = (language: string, source: LanguageSource): string => {
    state.language = language;
    state.languageSource = source;
    return language;
  };
  const detect = (text: string): string | undefined =>
    flows.languages.detect ? detectLanguage(text, declared, flows.languages.detect_min_chars, clues.guess) : undefined;
  // The clues that cost a detector run (or the NLU's language scores) are taken only where nothing before them
  // decided: most messages of a conversation whose language is settled need none of them (issue 28).
  const fromText = clues.text ? detect(clues.text) : undefined;
  const known = once(() => (flows.languages.detect ? fromNlu(clues.nlu?.languages, declared) : undefined));
  // An order number alone says nothing about the language it is written in.
  const written = (): string | undefined => fromText ?? (clues.text && letterCount(withoutCodes(clues.text)) > 0 ? known() : undefined);
  const picked = normalizeLanguage(menuAnswered(flows, state, written), declared);
  if (picked) state.chosenLanguage = picked;
  const chosen = normalizeLanguage(state.chosenLanguage, declared);
  if (chosen) return set(chosen, 'choice');
  if (fromText) return set(fromText, 'detected');
  const kept = normalizeLanguage(state.language, declared);
  const soFar = once(() => (clues.earlier?.length && clues.text ? detect([...clues.earlier, clues.text].join('. ')) : undefined));
  if (kept && state.languageSource !== undefined && state.languageSource !== 'default') {
    // A language guessed from short messages alone ("Hello", then "waar is mijn pakket?") is judged again with all
    // the customer wrote; one guessed from a long text, or chosen, is kept.
    const guessedShort =
      state.languageSource === 'detected' && letterCount((clues.earlier ?? []).join(' ')) < flows.languages.detect_min_chars;
    const again = guessedShort ? soFar() : undefined;
    return again && again !== kept ? set(again, 'detected') : kept;
  }
  const all = soFar();
  if (all) return set(all, 'detected');
  const nlu = known();
  if (nlu) return set(nlu, 'detected');
  const attribute = flows.languages.contact_attribute;
  const fromContact = attribute !== undefined ? normalizeLanguage(clues.contact.attributes?.[attribute], declared) : undefined;
  if (fromContact) return set(fromContact, 'contact');
  const fromMention = normalizeLanguage(clues.mentionLanguage, declared);
  if (fromMention) return set(fromMention, 'mention');
  return set(kept ?? flows.languages.default, 'default');
}

/** A value computed at its first use, and only then. */
function once<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}
