// Block Kit limits (docs.slack.dev, Block Kit reference): a message over them is refused outright,
// so every text we do not control is cut to fit before it is sent.
export const LIMITS = {
  blocks: 50,
  sectionText: 3000,
  fieldText: 2000,
  headerText: 150,
  buttonText: 75,
  buttonValue: 2000,
  buttonUrl: 3000,
  fallbackText: 4000,
  contextText: 3000,
} as const;

/**
 * Cuts `text` to at most `max` UTF-16 units (the stricter of the ways to count), marking the cut with an
 * ellipsis and never splitting a surrogate pair.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  for (const char of text) {
    if (out.length + char.length > max - 1) break;
    out += char;
  }
  return `${out}…`;
}

/** Slack's mrkdwn treats `&`, `<` and `>` as control characters; customer text must not ping or link. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escaped and cut, where the cut never splits an escape sequence. */
export function mrkdwn(text: string, max: number): string {
  const escaped = escapeMrkdwn(text);
  if (escaped.length <= max) return escaped;
  let cut = truncate(escaped, max);
  cut = cut.replace(/&[a-z]{0,3}…$/, '…');
  return cut;
}

/** Plain text Slack shows as-is (header, buttons): no escaping, only the length. */
export function plain(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return truncate(oneLine.length > 0 ? oneLine : '-', max);
}
