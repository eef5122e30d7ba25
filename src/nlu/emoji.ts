// Emoji say something too: "📦❓" asks about a parcel. Before classifying, the common ones are read as words of the
// language the text is read in (the stemmers drop emoji). Anything not listed stays as it is.

const MEANINGS: ReadonlyArray<{ emoji: readonly string[]; words: Readonly<Record<string, string>> }> = [
  { emoji: ['📦', '🚚', '🚛', '📬', '📫', '📮'], words: { en: 'parcel delivery', nl: 'pakket levering', fr: 'colis livraison' } },
  {
    emoji: ['⏰', '🕐', '🕑', '🕒', '🕓', '🕔', '🕕', '🕖', '🕗', '🕘', '🕙', '🕚', '🕛', '⌚', '🕰', '🏪'],
    words: { en: 'opening hours', nl: 'openingsuren', fr: "heures d'ouverture" },
  },
  { emoji: ['💶', '💰', '💸', '💵', '💷', '🤑'], words: { en: 'money back', nl: 'geld terug', fr: 'rembourser' } },
  { emoji: ['🙏', '🥰', '💐'], words: { en: 'thanks', nl: 'bedankt', fr: 'merci' } },
  { emoji: ['🙋', '👤', '🧑‍💼', '👨‍💼', '👩‍💼'], words: { en: 'a person', nl: 'een medewerker', fr: 'un conseiller' } },
  { emoji: ['😡', '🤬', '😠', '💢'], words: { en: 'angry', nl: 'boos', fr: 'énervé' } },
];

const byEmoji = new Map<string, Readonly<Record<string, string>>>();
for (const m of MEANINGS) for (const e of m.emoji) byEmoji.set(e, m.words);
const pattern = new RegExp([...byEmoji.keys()].sort((a, b) => b.length - a.length).join('|'), 'gu');

/** The text with the emoji it knows written out in `language` (unchanged for a language it has no words for). */
export function emojiAsWords(text: string, language: string): string {
  return text.replace(pattern, (e) => {
    const words = byEmoji.get(e)?.[language];
    return words === undefined ? e : ` ${words} `;
  });
}
