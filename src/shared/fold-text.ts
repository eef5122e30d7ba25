// Case- and accent-insensitive matching: every comparison in the brain goes through this folding.

/**
 * Short texts folded before: the brain folds every keyword, phrase and button title of the flows again for each
 * message (a CPU profile of the bench put 2 % of the bridge's busy time there). Bounded: emptied when full, and
 * only short texts (the flows' words; a customer's long message is folded once anyway).
 */
const folded = new Map<string, string>();
const FOLDED_MAX_ENTRIES = 4096;
const FOLDED_MAX_CHARS = 80;

/** Lower case, accents removed, punctuation turned into spaces, spaces collapsed: "Où est ma Commande ?" → "ou est ma commande". */
export function foldText(text: string): string {
  if (text.length > FOLDED_MAX_CHARS) return foldNow(text);
  let result = folded.get(text);
  if (result === undefined) {
    if (folded.size >= FOLDED_MAX_ENTRIES) folded.clear();
    result = foldNow(text);
    folded.set(text, result);
  }
  return result;
}

function foldNow(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Accents removed only; keeps case and punctuation, so a regular expression's source stays valid. */
export function stripAccents(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '');
}

/** Whether the folded phrase occurs in the folded text as whole words. */
export function containsPhrase(foldedText: string, foldedPhrase: string): boolean {
  if (!foldedPhrase) return false;
  return ` ${foldedText} `.includes(` ${foldedPhrase} `);
}
