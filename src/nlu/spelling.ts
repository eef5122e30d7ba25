// Typos: a word the examples of a language do not know is read as the known word one typing slip away ("oder" →
// "order", "bestelingg" → "bestelling"), two for long words. Words are compared folded (lower case, no accents).

/** Lower case, accents removed, letters and digits only. */
export function foldWord(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Optimal string alignment distance (a swap of two neighbours is one slip), or `max + 1` once it exceeds `max`. */
export function slips(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

const MIN_LENGTH = 4;

export interface Vocabulary {
  readonly words: ReadonlySet<string>;
  readonly byLength: ReadonlyMap<number, readonly string[]>;
  /** Corrections found before (bounded: emptied when full). */
  readonly seen: Map<string, string | undefined>;
}

const SEEN_MAX = 10_000;

/** The words of a text, in order, with those the vocabulary lacks replaced by their nearest known word when one is close. */
export function correctTypos(text: string, vocabulary: Vocabulary): string {
  return text.replace(/[\p{L}\p{N}'’-]+/gu, (raw) => {
    const word = foldWord(raw);
    if (word.length < MIN_LENGTH || vocabulary.words.has(word) || /\d/.test(word)) return raw;
    if (vocabulary.seen.has(word)) return vocabulary.seen.get(word) ?? raw;
    const found = nearest(word, vocabulary.byLength);
    if (vocabulary.seen.size >= SEEN_MAX) vocabulary.seen.clear();
    vocabulary.seen.set(word, found);
    return found ?? raw;
  });
}

/** Whether two words differ by two neighbouring letters swapped ("wnat", "want"). */
function isSwap(a: string, b: string): boolean {
  const diff = [...a].flatMap((c, i) => (c === b[i] ? [] : [i]));
  return diff.length === 2 && diff[1] === (diff[0] ?? -2) + 1 && a[diff[0] ?? 0] === b[diff[1] ?? 0] && a[diff[1] ?? 0] === b[diff[0] ?? 0];
}

/** Replacing one letter by another turns short words into other words ("card" → "care"): only long words may. */
const SUBSTITUTE_FROM = 6;

function nearest(word: string, byLength: ReadonlyMap<number, readonly string[]>): string | undefined {
  const max = word.length >= 7 ? 2 : 1;
  let best: string | undefined;
  let bestSlips = max + 1;
  for (let len = word.length - max; len <= word.length + max; len++) {
    const swapsOnly = len === word.length && word.length < SUBSTITUTE_FROM;
    for (const known of byLength.get(len) ?? []) {
      if (swapsOnly) {
        if (isSwap(word, known)) return known;
        continue;
      }
      const d = slips(word, known, Math.min(max, bestSlips - 1));
      if (d < bestSlips) {
        best = known;
        bestSlips = d;
      }
    }
  }
  return best;
}

/** The folded words of some texts, and the same words by length (for `correctTypos`). */
export function wordsOf(texts: readonly string[]): Vocabulary {
  const vocabulary = new Set<string>();
  for (const t of texts) for (const raw of t.match(/[\p{L}\p{N}'’-]+/gu) ?? []) vocabulary.add(foldWord(raw));
  vocabulary.delete('');
  const byLength = new Map<number, string[]>();
  for (const w of [...vocabulary].sort()) byLength.set(w.length, [...(byLength.get(w.length) ?? []), w]);
  return { words: vocabulary, byLength, seen: new Map() };
}
