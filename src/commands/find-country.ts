import { COUNTRY_NAMES } from './country-names.js';

export interface Country {
  readonly code: string;
  readonly name: string;
}

// Managers type "cote d'ivoire" or "St. Lucia": compare without case, accents, dots or the article.
function normalise(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\u2018\u2019`]/g, "'")
    .replace(/&/g, ' and ')
    .replace(/\bst\.?(?=\s)/g, 'saint')
    .replace(/\./g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^the /, '');
}

let byName: Map<string, Country> | undefined;

function nameIndex(): Map<string, Country> {
  if (byName) return byName;
  byName = new Map();
  for (const [code, names] of Object.entries(COUNTRY_NAMES)) {
    const country = { code, name: names[0] as string };
    for (const name of names) byName.set(normalise(name), country);
  }
  return byName;
}

/** A 2-letter ISO code, or an English name or alias ("UK" is an alias: GB is its code). */
export function findCountry(text: string): Country | undefined {
  const trimmed = text.trim();
  if (/^[A-Za-z]{2}$/.test(trimmed)) {
    const code = trimmed.toUpperCase();
    const names = COUNTRY_NAMES[code];
    if (names) return { code, name: names[0] as string };
  }
  return nameIndex().get(normalise(trimmed));
}
