// Control characters (C0 but line feed and tab, DEL, C1) and the bidirectional overrides, which reorder what follows.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly what is matched
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly what is matched
const UNSAFE_IN_FIELD = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const shown = (c: string): string => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`;

/**
 * Text for a terminal: escape sequences and other control characters are shown escaped (`\u{1b}`), so that text a
 * customer or agent wrote can neither clear the screen nor move the cursor. Line feeds and tabs stay.
 */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, shown);
}

/** One field a customer or agent wrote, for one line: its line breaks are shown escaped too, so it cannot fake a line. */
export function oneLineField(text: string): string {
  return text.replace(UNSAFE_IN_FIELD, shown);
}
