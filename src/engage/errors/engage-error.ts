/** Where a failed call went: enough to find it in a log, never the token. */
export interface EngageErrorContext {
  method: string;
  /** Path (or URL) with any `access_token` removed. */
  path: string;
  /** HTTP status, absent when no answer arrived. */
  status?: number | undefined;
  /** The service's `error` / `error_type`, when it gave one. */
  serviceError?: string | undefined;
  /** The service's `error_description` / `error_message`, when it gave one. */
  description?: string | undefined;
  cause?: unknown;
}

/**
 * Root of every failure of the Engage client. `code` is stable (switch on it),
 * `humanMessage` is a sentence a manager can act on, `message` is the technical line.
 */
export class EngageError extends Error {
  readonly code: string;
  readonly humanMessage: string;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly serviceError: string | undefined;
  readonly description: string | undefined;

  constructor(code: string, humanMessage: string, context: EngageErrorContext) {
    super(technicalLine(code, context), context.cause === undefined ? undefined : { cause: context.cause });
    this.name = new.target.name;
    this.code = code;
    this.humanMessage = humanMessage;
    this.method = context.method;
    this.path = context.path;
    this.status = context.status;
    this.serviceError = context.serviceError;
    this.description = context.description;
  }
}

function technicalLine(code: string, c: EngageErrorContext): string {
  const status = c.status === undefined ? 'no answer' : `HTTP ${c.status}`;
  const detail = [c.serviceError, c.description].filter((x) => x !== undefined && x !== '').join(': ');
  return `${c.method} ${c.path} failed (${status}, ${code})${detail === '' ? '' : `: ${detail}`}`;
}
