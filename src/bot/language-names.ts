// A language the customer names ("kunnen we in het Frans verder?", "in English please", "parlez-vous néerlandais ?",
// "Dutch" typed under the language menu): the names customers use, in English, Dutch and French and the language's
// own, for the languages flows commonly declare; a language menu's button titles count too.
import type { Flows } from './flow-schema.js';
import type { Button } from './types.js';
import { foldText } from '../shared/fold-text.js';
import { menuEntry } from './quick-replies.js';

/** Folded names by ISO 639-1 code. */
const NAMES: Readonly<Record<string, readonly string[]>> = {
  en: ['english', 'engels', 'engelse', 'engelstalig', 'anglais', 'anglophone', 'englisch'],
  nl: ['dutch', 'nederlands', 'nederlandse', 'nederlandstalig', 'vlaams', 'flemish', 'neerlandais', 'flamand', 'hollands'],
  fr: ['french', 'frans', 'franse', 'franstalig', 'francais', 'francophone', 'franzosisch'],
  de: ['german', 'duits', 'allemand', 'deutsch'],
  es: ['spanish', 'spaans', 'espagnol', 'espanol'],
  it: ['italian', 'italiaans', 'italien', 'italiano'],
};

/** A clause that says the customer does not (or cannot) use a language names none: "I don't speak French". */
const NEGATED = /(?:^| )(?:not|dont|don t|do not|doesn t|can t|cannot|cant|never|niet|geen|nooit|pas|ne|n|jamais)(?: |$)/u;
const CLAUSES = /[,.;:!?\n]+|\s(?:but|maar|mais)\s/iu;

/** The language menu buttons' steps: which button switches to which language. */
function languageButtons(flows: Flows, menuName: string): Array<{ language: string; title: string }> {
  return (flows.menus[menuName]?.buttons ?? []).flatMap((b) =>
    b.then.language !== undefined && b.title !== undefined ? [{ language: b.then.language, title: b.title }] : [],
  );
}

/** Whether a menu switches languages (each of its buttons leads to a language). */
export function isLanguageMenu(flows: Flows, menuName: string): boolean {
  const menu = flows.menus[menuName];
  return menu !== undefined && menu.buttons.length > 0 && menu.buttons.every((b) => b.then.language !== undefined);
}

/** The languages among `candidates` that the text names outside a negated clause (each once, in order of the candidates). */
export function languagesNamed(text: string, candidates: ReadonlyArray<{ language: string; title?: string }>): string[] {
  const clauses = text
    .split(CLAUSES)
    .map((c) => ` ${foldText(c ?? '')} `)
    .filter((c) => c.trim() !== '' && !NEGATED.test(c));
  const named = candidates.filter(({ language, title }) => {
    const names = [...(NAMES[language.split('-')[0] ?? language] ?? []), ...(title !== undefined ? [foldText(title)] : [])];
    return clauses.some((c) => names.some((n) => n !== '' && c.includes(` ${n} `)));
  });
  return [...new Set(named.map((c) => c.language))];
}

/** The one language of a language menu that the text names ("Nederlands graag", "in Dutch"), if exactly one. */
export function namedLanguageButton(flows: Flows, menuName: string, text: string): string | undefined {
  if (!isLanguageMenu(flows, menuName)) return undefined;
  const named = languagesNamed(text, languageButtons(flows, menuName));
  return named.length === 1 ? named[0] : undefined;
}

/** The offered language menu's button for the one language a typed message names ("Dutch", "Français svp"). */
export function selectLanguageByName(
  flows: Flows,
  offer: { menu: string; buttons: readonly Button[] } | undefined,
  text: string,
): Button | undefined {
  if (!offer) return undefined;
  const language = namedLanguageButton(flows, offer.menu, text);
  const menu = flows.menus[offer.menu];
  if (language === undefined || !menu) return undefined;
  return offer.buttons.find((b) => menuEntry(menu, b)?.then.language === language);
}
