// Whether the PostgreSQL store is reached over TLS that checks who answers (issue 27): a warning at start when the
// URL says `sslmode=no-verify`, or when a database off this machine is reached without `verify-ca`/`verify-full`.
// The warning names the host and the mode, never the URL (its password).

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);
const VERIFIED_MODES = new Set(['verify-ca', 'verify-full']);

function isLocalHost(host: string): boolean {
  const h = decodeURIComponent(host).toLowerCase();
  // No host (`postgres:///db`) or a directory (`?host=/run/postgresql`, `postgres://%2Frun%2Fpostgresql/db`): a Unix socket.
  return h === '' || h.startsWith('/') || LOCAL_HOSTS.has(h) || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** The warning line for `BRIDGE_DATABASE_URL`, or undefined when its TLS mode is verified or the database is local. */
export function databaseTlsWarning(databaseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return undefined; // pg refuses it at connect, with its own message
  }
  const mode = url.searchParams.get('sslmode')?.toLowerCase();
  if (mode === 'no-verify') {
    return 'BRIDGE_DATABASE_URL has sslmode=no-verify: the connection is encrypted but the server certificate is not checked, so anyone on the path can pose as the database; use sslmode=verify-full';
  }
  const host = url.searchParams.get('host') ?? url.hostname;
  if (isLocalHost(host) || (mode !== undefined && VERIFIED_MODES.has(mode))) return undefined;
  const shown = decodeURIComponent(host).replace(/[^\w.:[\]-]/g, '?');
  return `the PostgreSQL store on ${shown} (not this machine) is reached with ${mode === undefined ? 'no sslmode' : `sslmode=${mode}`}, which does not verify the server: use sslmode=verify-full (and sslrootcert= for a private CA)`;
}
