import { EngageError } from '../errors/engage-error.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** The settings are wrong before any call is made (e.g. a plain-HTTP base URL on the internet). */
export class ConfigurationError extends EngageError {
  constructor(description: string) {
    super('invalid_configuration', `The Engage client settings are wrong: ${description}.`, {
      method: 'CONFIG',
      path: '',
      description,
    });
  }
}

/**
 * Checks and normalises the base address: HTTPS is required for every host that is not loopback
 * (the token travels in a header), and the result has no trailing slash.
 */
export function parseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigurationError(`base URL "${baseUrl}" is not a URL`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new ConfigurationError(`base URL must use https:// for a host that is not loopback (got ${url.protocol}//${url.host})`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConfigurationError('base URL must not carry a query, a fragment or credentials');
  }
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}
