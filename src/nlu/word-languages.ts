// Which language a short message's words belong to, by how often each language's examples use them: "merci" is in
// the Dutch examples too ("Oké, merci hoor"), but far more often in the French ones, so "merci" alone reads French.
// Letter-trigram guessers say nothing on one or two words; the examples do.

/** Lower case, accents removed, letters only, a letter typed three times or more once ("merciii"). */
const wordsIn = (text: string): string[] =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/(\p{L})\1{2,}/gu, '$1')
    .split(/[^\p{L}]+/u)
    .filter(Boolean);

/**
 * Per language, from its examples: each word's frequency. The reader gives each language the mean, over the text's
 * words some examples use, of that language's share of the word's (length-normalised) frequency; the best is 1.
 * Undefined when the examples use none of the words.
 */
export function wordLanguages(examples: ReadonlyMap<string, readonly string[]>): (text: string) => Record<string, number> | undefined {
  const frequency = new Map<string, Map<string, number>>();
  for (const [lang, texts] of examples) {
    const counts = new Map<string, number>();
    let total = 0;
    for (const text of texts) {
      for (const w of wordsIn(text)) {
        counts.set(w, (counts.get(w) ?? 0) + 1);
        total += 1;
      }
    }
    for (const [w, n] of counts) counts.set(w, n / Math.max(1, total));
    frequency.set(lang, counts);
  }
  const languages = [...examples.keys()];
  return (text) => {
    const sums: Record<string, number> = Object.fromEntries(languages.map((l) => [l, 0]));
    let known = 0;
    for (const w of wordsIn(text)) {
      const shares = languages.map((l) => frequency.get(l)?.get(w) ?? 0);
      const all = shares.reduce((a, b) => a + b, 0);
      if (all === 0) continue;
      known += 1;
      languages.forEach((l, i) => {
        sums[l] = (sums[l] ?? 0) + (shares[i] ?? 0) / all;
      });
    }
    const best = Math.max(0, ...Object.values(sums));
    if (known === 0 || best === 0) return undefined;
    return Object.fromEntries(languages.map((l) => [l, (sums[l] ?? 0) / best]));
  };
}
