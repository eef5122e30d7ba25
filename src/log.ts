import { pino, type Logger, type DestinationStream } from 'pino';
import pretty from 'pino-pretty';
import { pseudonymiser } from './settings/pseudonymise.js';

export type { Logger } from 'pino';

/** Field paths whose values never reach a log line, whatever object they sit in. */
const REDACT_PATHS = [
  'token',
  'accessToken',
  'access_token',
  'authorization',
  'Authorization',
  'password',
  'secret',
  'signingSecret',
  'botToken',
  'appToken',
  'webhookSecret',
  '*.token',
  '*.accessToken',
  '*.access_token',
  '*.authorization',
  '*.Authorization',
  '*.password',
  '*.secret',
  '*.signingSecret',
  '*.botToken',
  '*.appToken',
  '*.webhookSecret',
  'headers.authorization',
  '*.headers.authorization',
  'req.headers.authorization',
];

export interface LoggerOptions {
  readonly level: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Secret values in force: any line containing one has it replaced, wherever it appears. */
  readonly secrets?: readonly string[];
  /** Human-readable output (default: when stdout is a terminal). */
  readonly pretty?: boolean;
  /**
   * Key of the pseudonyms of contact ids and phone numbers in log lines (see `pseudonymiser`); absent: they are
   * written in clear (`LOG_CUSTOMER_IDS=clear`, tests).
   */
  readonly pseudonymKey?: string;
  /** Where lines go (default stdout). */
  readonly destination?: DestinationStream;
}

/**
 * The ways a secret may be written into a line: as is, percent-encoded (upper- and lower-case hex, `encodeURI` and
 * `encodeURIComponent`, `+` for a space), and base64 (standard, URL-safe, with and without padding).
 */
export function secretForms(secret: string): string[] {
  const component = encodeURIComponent(secret);
  const b64 = Buffer.from(secret, 'utf8').toString('base64');
  const b64url = Buffer.from(secret, 'utf8').toString('base64url');
  const forms = [
    secret,
    component,
    component.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    encodeURI(secret),
    component.replace(/%20/g, '+'),
    b64,
    b64.replace(/=+$/, ''),
    b64url,
  ];
  return [...new Set(forms)];
}

/**
 * Replaces every occurrence of a secret value (in each form of `secretForms`), and any `access_token=` parameter, in a text. Every secret counts,
 * however short (a short one costs some readability, a leaked one costs the account); longer ones go first so a
 * secret inside another is not left half-shown, and each is also matched as it appears inside a JSON string.
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text.replace(/(access_token=)[^&\s"']+/gi, '$1[redacted]');
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    for (const form of secretForms(secret)) {
      forms.add(form);
      forms.add(JSON.stringify(form).slice(1, -1));
    }
  }
  for (const form of [...forms].sort((a, b) => b.length - a.length)) out = out.split(form).join('[redacted]');
  return out;
}

/** The secret values a logger scrubs; `refreshLogSecrets` adds to them (SIGHUP). */
const scrubLists = new WeakMap<Logger, { values: readonly string[] }>();

/**
 * After a reload the new secrets are scrubbed too; the old ones stay scrubbed, since lines about the old token
 * (a late error, a retry) may still come.
 */
export function refreshLogSecrets(log: Logger, secrets: readonly string[]): void {
  const list = scrubLists.get(log);
  if (list) list.values = [...new Set([...list.values, ...secrets])];
}

/** The process logger: structured JSON, pretty on a terminal, secrets redacted by path and by value, customer ids pseudonymised. */
export function createLogger(options: LoggerOptions): Logger {
  const list = { values: [...(options.secrets ?? [])] };
  const pseudonymise = options.pseudonymKey === undefined ? undefined : pseudonymiser(options.pseudonymKey);
  const usePretty = options.pretty ?? Boolean(process.stdout.isTTY);
  const destination =
    options.destination ?? (usePretty ? pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' }) : undefined);
  const opts = {
    level: options.level,
    base: undefined,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    hooks: {
      streamWrite: (line: string) => (pseudonymise ? pseudonymise(scrubSecrets(line, list.values)) : scrubSecrets(line, list.values)),
    },
  };
  const log = destination ? pino(opts, destination) : pino(opts);
  scrubLists.set(log, list);
  return log;
}

export type CrashKind = 'unhandledRejection' | 'uncaughtException';

/**
 * The last line of defence: an error nobody caught is logged (through the scrubbing logger: its message or stack
 * may quote a token) and the process exits non-zero, so the supervisor restarts it from a known state.
 */
export function crashReporter(log: Logger, exit: (code: number) => void): (kind: CrashKind, error: unknown) => void {
  return (kind, error) => {
    const err = error instanceof Error ? { message: error.message, stack: error.stack } : { message: String(error) };
    try {
      log.fatal({ kind, err }, 'unexpected failure: exiting so that the supervisor restarts the bridge');
      log.flush?.();
    } finally {
      exit(1);
    }
  };
}

/** A logger that drops everything (tests, library defaults). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
