import { pino, type Logger, type DestinationStream } from 'pino';
import pretty from 'pino-pretty';

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
  /** Where lines go (default stdout). */
  readonly destination?: DestinationStream;
}

/** Replaces every occurrence of a secret value, and any `access_token=` parameter, in a text. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text.replace(/(access_token=)[^&\s"']+/gi, '$1[redacted]');
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out;
}

/** The process logger: structured JSON, pretty on a terminal, secrets redacted by path and by value. */
export function createLogger(options: LoggerOptions): Logger {
  const secrets = options.secrets ?? [];
  const usePretty = options.pretty ?? Boolean(process.stdout.isTTY);
  const destination =
    options.destination ?? (usePretty ? pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' }) : undefined);
  const opts = {
    level: options.level,
    base: undefined,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    hooks: {
      streamWrite: (line: string) => scrubSecrets(line, secrets),
    },
  };
  return destination ? pino(opts, destination) : pino(opts);
}

/** A logger that drops everything (tests, library defaults). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
