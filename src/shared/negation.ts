// Negation in English, Dutch and French, for reading customers: "no agent needed, just the hours" asks for the hours,
// "je ne veux pas de remboursement, où est mon colis" asks for the parcel. A negation cue reaches to the end of its
// clause (a comma, a full stop, "but", "maar", "mais", "just", "juste", ...). Pure: shared by the brain (which keywords
// count) and the NLU (what it classifies).

/** Lower case and accents removed, punctuation kept (clause boundaries are punctuation). */
function lower(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[’`´]/g, "'");
}

// Every cue, for what the NLU classifies: a clause these open is left out when another clause says what is wanted.
const CUES =
  /(?<![\p{L}'])(?:no|not|don'?t|do not|doesn'?t|didn'?t|never|without|nothing|geen|niet|nooit|zonder|pas|ne|n'|sans|jamais|aucune?)(?![\p{L}])/gu;
// The cues that say "I do not want this" (not "why can't I talk to a person"), for the words that ask for a person.
const REFUSALS =
  /(?<![\p{L}'])(?:no|don'?t (?:want|need)|do not (?:want|need)|never mind|without|not (?:a|an|the|any)|not (?:asking|looking) for|don'?t (?:transfer|put me through)|do not (?:transfer|put me through)|geen|niet nodig|niet (?:doorverbinden|doorschakelen|doorsturen)|zonder|pas (?:de|d'|besoin|un|une|d'un|d'une)|sans|ne veux pas|ne (?:demande|cherche) pas|aucune?)(?![\p{L}])/gu;
const BOUNDARY =
  /[,.;:!?()\n]|(?<![\p{L}])(?:but|just|only|instead|rather|i want|i need|i'd like|maar|gewoon|alleen|enkel|ik wil|mais|juste|seulement|plutot|je veux|je voudrais)(?![\p{L}])/gu;

interface Span {
  start: number;
  end: number;
  /** Whether a clause follows (the customer says what they want instead). */
  followed: boolean;
}

function spansOf(text: string, cues: RegExp): Span[] {
  const spans: Span[] = [];
  for (const cue of text.matchAll(cues)) {
    const from = cue.index + cue[0].length;
    BOUNDARY.lastIndex = from;
    const stop = BOUNDARY.exec(text);
    const end = stop ? stop.index : text.length;
    const rest = text.slice(end).replace(BOUNDARY, ' ');
    spans.push({ start: cue.index, end, followed: /\p{L}{2,}/u.test(rest) });
  }
  BOUNDARY.lastIndex = 0;
  return spans;
}

/**
 * The text without its negated clauses when another clause remains ("not a refund, I want my parcel" → ", I want my
 * parcel"); the text itself when there is none, or when nothing but negation would be left ("my parcel has not arrived").
 */
export function withoutNegated(text: string): string {
  const low = lower(text);
  if (low.length !== text.length) return text;
  const spans = spansOf(low, CUES).filter((s) => s.followed);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const s of spans) {
    if (s.start < at) continue;
    out += `${text.slice(at, s.start)} `;
    at = s.end;
  }
  out += text.slice(at);
  return /\p{L}{2,}/u.test(out) ? out.replace(/\s{2,}/g, ' ').trim() : text;
}

/** The text with its refused clauses blanked out (same length), so words found in it were not refused. */
export function blankRefused(text: string): string {
  const low = lower(text);
  if (low.length !== text.length) return text;
  let out = text;
  for (const s of spansOf(low, REFUSALS)) out = out.slice(0, s.start) + ' '.repeat(s.end - s.start) + out.slice(s.end);
  return out;
}
