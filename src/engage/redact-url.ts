/**
 * Removes `access_token` from a URL or path (query string) so it can be logged or kept in an error.
 * Works on absolute URLs and on bare paths.
 */
export function redactUrl(urlOrPath: string): string {
  const queryStart = urlOrPath.indexOf('?');
  if (queryStart < 0) return urlOrPath;
  const hashStart = urlOrPath.indexOf('#', queryStart);
  const head = urlOrPath.slice(0, queryStart);
  const query = urlOrPath.slice(queryStart + 1, hashStart < 0 ? undefined : hashStart);
  const kept = query.split('&').filter((pair) => pair !== '' && decodeURIComponentSafe(pair.split('=')[0] ?? '') !== 'access_token');
  return kept.length === 0 ? head : `${head}?${kept.join('&')}`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Replaces every occurrence of a secret in a text; used on anything that may echo a request. */
export function redactSecret(text: string, secret: string): string {
  return secret === '' ? text : text.split(secret).join('[redacted]');
}
