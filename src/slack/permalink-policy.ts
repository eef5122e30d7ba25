/**
 * The *Open in Engage* button sends a manager's browser wherever the permalink points, and the permalink comes
 * from the API item as given. Only the service's own tool (`*.engagor.com`, HTTPS) and the origin of the
 * configured API base address (a private deployment or the simulator) are linked; anything else gets no button.
 */
const SERVICE_DOMAIN = 'engagor.com';

export function isServicePermalink(value: string | undefined, ownOrigins: readonly string[] = []): value is string {
  if (value === undefined || value.length > 3000) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '') return false;
  if (url.protocol === 'https:' && (url.hostname === SERVICE_DOMAIN || url.hostname.endsWith(`.${SERVICE_DOMAIN}`))) return true;
  return ownOrigins.includes(url.origin);
}

/** The origin of a base address, for `isServicePermalink`; undefined when it is not a URL. */
export function originOf(baseUrl: string | undefined): string | undefined {
  if (baseUrl === undefined) return undefined;
  try {
    return new URL(baseUrl).origin;
  } catch {
    return undefined;
  }
}
