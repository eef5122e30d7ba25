export type TokenizeResult = { ok: true; tokens: string[] } | { ok: false; error: string };

// Slack and phones turn straight quotes into curly ones; a manager typing company=“Acme NV” means quotes.
const QUOTE_OF: Readonly<Record<string, string>> = {
  '"': '"',
  "'": "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u2018': "'",
  '\u2019': "'",
};

/**
 * Splits a command on whitespace, honouring "double" and 'single' quotes anywhere in a token
 * (`company="Acme NV"` is one token `company=Acme NV`). Inside double quotes `\"` and `\\` escape.
 */
export function tokenize(text: string): TokenizeResult {
  const tokens: string[] = [];
  let current = '';
  let inToken = false;
  let quote: string | null = null;
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i++) {
    const raw = chars[i] as string;
    const ch = QUOTE_OF[raw] ?? raw;
    if (quote !== null) {
      if (ch === quote && quote === "'" && isWordChar(chars[i - 1]) && isWordChar(chars[i + 1])) {
        // An apostrophe inside a single-quoted word ('O'Brien') is text, not the closing quote.
        current += raw;
      } else if (ch === quote) {
        quote = null;
      } else if (quote === '"' && raw === '\\' && (chars[i + 1] === '"' || chars[i + 1] === '\\')) {
        current += chars[i + 1] as string;
        i++;
      } else {
        current += raw;
      }
      continue;
    }
    if (/\s/u.test(raw)) {
      if (inToken) tokens.push(current);
      current = '';
      inToken = false;
      continue;
    }
    inToken = true;
    if (ch === '"' || ch === "'") {
      // An apostrophe inside a word (O'Brien) is text; a quote opens only at a token or value start.
      if (ch === "'" && isWordChar(chars[i - 1]) && isWordChar(chars[i + 1])) {
        current += raw;
        continue;
      }
      quote = ch;
      continue;
    }
    current += raw;
  }
  if (quote !== null) {
    return { ok: false, error: `unbalanced ${quote === '"' ? 'double' : 'single'} quote` };
  }
  if (inToken) tokens.push(current);
  return { ok: true, tokens };
}

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && /[\p{L}\p{N}]/u.test(ch);
}
