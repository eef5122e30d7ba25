import { EngageError, type EngageErrorContext } from './engage-error.js';

/** A parameter was refused, by the service (400) or by the client before any request. */
export class InvalidParameterError extends EngageError {
  constructor(context: EngageErrorContext, humanMessage?: string) {
    super(
      'invalid_parameter',
      humanMessage ??
        `The Engage service refused the request${context.description ? `: ${context.description}` : ''}. Check the values and try again.`,
      context,
    );
  }
}

/** The token is missing, expired or revoked (e.g. after a password change). Never retried. */
export class AuthError extends EngageError {
  constructor(context: EngageErrorContext) {
    super('invalid_token', 'the user changed their password or revoked access: re-authorise', context);
  }
}

export class InsufficientScopeError extends EngageError {
  constructor(context: EngageErrorContext) {
    super(
      'insufficient_scope',
      'The Engage access token lacks a permission this action needs: authorise the application again with the missing scope.',
      context,
    );
  }
}

export class NotFoundError extends EngageError {
  constructor(context: EngageErrorContext) {
    super('not_found', 'Engage does not know this item (or the account): check the id and the configured account.', context);
  }
}

/** Rate limited; `retryAfterMs` is how long the service asks us to wait. */
export class RateLimitError extends EngageError {
  readonly retryAfterMs: number;
  constructor(context: EngageErrorContext, retryAfterMs: number) {
    super('rate_limited', `Engage's rate limit for this user is used up: it resets in about ${Math.ceil(retryAfterMs / 1000)} s.`, context);
    this.retryAfterMs = retryAfterMs;
  }
}

export class ServerError extends EngageError {
  constructor(context: EngageErrorContext) {
    super('server_error', 'The Engage service had a fault: try again in a moment.', context);
  }
}

/** `aborted`: the client cut the request off itself (the bridge is stopping). */
export type ConnectionFailure = 'timeout' | 'reset' | 'refused' | 'aborted' | 'other';

/** No usable answer: connect failure, timeout, reset. */
export class ConnectionError extends EngageError {
  readonly reason: ConnectionFailure;
  constructor(context: EngageErrorContext, reason: ConnectionFailure) {
    super(
      reason === 'timeout' ? 'timeout' : 'connection_failed',
      reason === 'timeout'
        ? 'The Engage service did not answer in time: try again in a moment.'
        : reason === 'aborted'
          ? 'The request to Engage was cut off because the bridge is stopping; it is tried again at the next start.'
          : 'Could not reach the Engage service: check the network and the base URL.',
      context,
    );
    this.reason = reason;
  }
}

/** An answer arrived but was not what the API promises (not JSON, or an item missing a field). */
export class MalformedResponseError extends EngageError {
  /**
   * The body could not be read as JSON at all (cut short on the way, or a proxy's page): another try may get a
   * whole answer. A readable answer of the wrong shape, or one too large, would only come back the same.
   */
  readonly unreadable: boolean;

  constructor(context: EngageErrorContext, unreadable = false) {
    super('malformed_response', 'The Engage service answered with something unexpected: try again, or report it.', context);
    this.unreadable = unreadable;
  }
}

/** Any other unexpected HTTP status (e.g. 409, a redirect). */
export class UnexpectedStatusError extends EngageError {
  constructor(context: EngageErrorContext) {
    super('unexpected_status', `The Engage service answered HTTP ${context.status ?? '?'}: try again, or report it.`, context);
  }
}
