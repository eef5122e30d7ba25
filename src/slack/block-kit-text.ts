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

/** mrkdwn's markup characters and the lookalikes customer text shows instead (Slack has no escape for them). */
const MARKUP_LOOKALIKES: Record<string, string> = { '*': '\u2217', _: '\u02cd', '~': '\u223c', '`': '\u02cb' };
/** A word Slack would turn into a link: a scheme (`https://`, `mailto:`), `www.`, or a domain name (`evil.example/x`, `a@b.co`), maybe in brackets. */
const LINK_LIKE = /(?:^|[^a-z0-9])(?:[a-z][a-z0-9+.-]*:\/\/|(?:mailto|tel|sms|slack):|www\.)|[a-z0-9-]\.[a-z]{2,}/i;

/**
 * Text a customer (or an agent) wrote, for a mrkdwn field: on one line (a line break cannot start a fake field or
 * speaker line), markup characters shown as lookalikes (no bold, italics, strike or code), a link-like word's dots and
 * colons shown as lookalikes (Slack makes no link of it), `& < >` escaped (no `<!channel>`, mention or `<url|label>`),
 * and cut to `max`.
 */
export function customerText(text: string, max: number): string {
  const oneLine = text.replace(/[\s\u2028\u2029]+/gu, ' ').trim();
  const unlinked = oneLine
    .split(' ')
    .map((word) => (LINK_LIKE.test(word) ? word.replace(/\./g, '\u2024').replace(/:/g, '\u2236').replace(/@/g, '\uff20') : word))
    .join(' ');
  return mrkdwn(
    // `_` inside a word (`explicit_request`) starts no italics: only one at a word's edge is replaced.
    unlinked.replace(/[*~`]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, (c) => MARKUP_LOOKALIKES[c] ?? c),
    max,
  );
}

/** Plain text Slack shows as-is (header, buttons): no escaping, only the length. */
export function plain(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return truncate(oneLine.length > 0 ? oneLine : '-', max);
}
