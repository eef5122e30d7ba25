import {
  AuthError,
  ConnectionError,
  EngageError,
  InsufficientScopeError,
  InvalidParameterError,
  NotFoundError,
  RateLimitError,
  ServerError,
} from '../engage/errors/index.js';

/**
 * One sentence a manager can act on, for any failure of a command's calls; never a stack trace.
 * `subject` names what the command was about ("mention 2001/9001").
 */
export function describeFailure(error: unknown, subject: string): string {
  if (error instanceof AuthError) {
    return (
      'The Engage access token was refused (expired, or revoked after a password change): ' +
      'authorise the application again and update ENGAGE_ACCESS_TOKEN.'
    );
  }
  if (error instanceof InsufficientScopeError) {
    return (
      `The Engage access token lacks a permission needed for ${subject}` +
      `${error.description ? ` (${error.description})` : ''}: ` +
      'authorise the application again with the accounts_read, accounts_write and accounts_handover scopes.'
    );
  }
  if (error instanceof NotFoundError) {
    return `Engage does not know ${subject}: check the reference (and that it belongs to the configured account).`;
  }
  if (error instanceof RateLimitError) {
    return `Engage's rate limit is used up for now: try again in about ${Math.max(1, Math.ceil(error.retryAfterMs / 1000))} s.`;
  }
  if (error instanceof InvalidParameterError) {
    // No status: the client refused it before sending, and its message says why.
    if (error.status === undefined) return error.humanMessage;
    return `Engage refused the request for ${subject}${error.description ? `: ${error.description}` : ''}.`;
  }
  if (error instanceof ServerError) {
    return 'The Engage service had a fault: try again in a moment.';
  }
  if (error instanceof ConnectionError) {
    return error.reason === 'timeout'
      ? 'The Engage service did not answer in time: try again in a moment.'
      : 'Could not reach the Engage service: check the network and ENGAGE_BASE_URL.';
  }
  if (error instanceof EngageError) return error.humanMessage;
  const message = error instanceof Error ? error.message : String(error);
  return `The bridge could not do it (${firstLine(message)}).`;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
