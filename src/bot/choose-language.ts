// The conversation's language: the customer's own choice, the contact's attribute, the mention's language,
// a guess from a long enough message, then the flows' default. Once chosen (other than by default) it is kept.
import type { Flows } from './flow-schema.js';
import type { LanguageGuesser } from './language-guesser.js';
import type { DialogState } from './dialog-state.js';
import type { ContactInfo } from './types.js';

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
      text,
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
  /** The mention's language field. */
  mentionLanguage?: unknown;
  /** The customer's message, for the detector. */
  text?: string;
  /** The detector; without it nothing is guessed from the text. */
  guess?: LanguageGuesser | undefined;
}

/** Sets the state's language for this turn; keeps one already chosen by anything but the default. */
export function chooseLanguage(flows: Flows, state: DialogState, clues: LanguageClues): string {
  const declared = flowLanguages(flows);
  const set = (language: string, source: LanguageSource): string => {
    state.language = language;
    state.languageSource = source;
    return language;
  };
  const chosen = normalizeLanguage(state.chosenLanguage, declared);
  if (chosen) return set(chosen, 'choice');
  const kept = normalizeLanguage(state.language, declared);
  if (kept && state.languageSource !== undefined && state.languageSource !== 'default') return kept;
  const attribute = flows.languages.contact_attribute;
  const fromContact = attribute !== undefined ? normalizeLanguage(clues.contact.attributes?.[attribute], declared) : undefined;
  if (fromContact) return set(fromContact, 'contact');
  const fromMention = normalizeLanguage(clues.mentionLanguage, declared);
  if (fromMention) return set(fromMention, 'mention');
  const detected =
    flows.languages.detect && clues.text ? detectLanguage(clues.text, declared, flows.languages.detect_min_chars, clues.guess) : undefined;
  if (detected) return set(detected, 'detected');
  return set(kept ?? flows.languages.default, 'default');
}
