// Case- and accent-insensitive matching: every comparison in the brain goes through this folding.

/** Lower case, accents removed, punctuation turned into spaces, spaces collapsed: "Où est ma Commande ?" → "ou est ma commande". */
export function foldText(text: string): string {
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
