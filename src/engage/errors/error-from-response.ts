import type { EngageError, EngageErrorContext } from './engage-error.js';
import {
  AuthError,
  InsufficientScopeError,
  InvalidParameterError,
  MalformedResponseError,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnexpectedStatusError,
} from './error-kinds.js';
import { rateLimitWaitMs, readRemaining, readRetryAfterMs, type HeaderBag } from './rate-limit-headers.js';

export interface FailedResponse {
  method: string;
  /** Already redacted. */
  path: string;
  status: number;
  headers: HeaderBag;
  bodyText: string;
  nowMs: number;
}

interface ServiceFault {
  status: number;
  error: string | undefined;
  description: string | undefined;
}

/**
 * The one place that turns an error answer into an error kind. Accepts the OAuth body
 * `{ error, error_description }`, the alternative `meta.code / meta.error_type / meta.error_message`,
 * and a body that is not JSON at all (then the HTTP status alone decides).
 */
export function errorFromResponse(response: FailedResponse): EngageError {
  const fault = readFault(response.status, response.bodyText);
  const context: EngageErrorContext = {
    method: response.method,
    path: response.path,
    status: fault.status,
    serviceError: fault.error,
    description: fault.description,
  };
  const { status, error } = fault;
  if (status === 429 || error === 'rate_limit_reached' || unnamedRateLimit(fault, response)) {
    return new RateLimitError(context, rateLimitWaitMs(response.headers, response.nowMs));
  }
  if (status === 401 || error === 'invalid_token') return new AuthError(context);
  if (status === 403 || error === 'insufficient_scope') return new InsufficientScopeError(context);
  if (status === 404 || error === 'not_found') return new NotFoundError(context);
  if (status >= 500 || error === 'server_error') return new ServerError(context);
  if (status === 400 || status === 405 || status === 422 || error === 'invalid_parameter' || error === 'invalid_request') {
    return new InvalidParameterError(context);
  }
  if (status >= 200 && status < 300) return new MalformedResponseError(context);
  return new UnexpectedStatusError(context);
}

/**
 * The documented rate-limit refusal is a 400. A 400 whose body names no error code (plain text, an empty body: issue
 * 26) is that refusal when the answer says so otherwise: a `Retry-After`, no requests remaining, or words saying
 * "rate limit". Waiting and trying again is then right; calling it a bad parameter would give up on the message.
 */
function unnamedRateLimit(fault: ServiceFault, response: FailedResponse): boolean {
  if (fault.status !== 400 || fault.error !== undefined) return false;
  if (readRetryAfterMs(response.headers, response.nowMs) !== null || readRemaining(response.headers) === 0) return true;
  return /rate[\s_-]*limit|too many requests/i.test(response.bodyText);
}

function readFault(httpStatus: number, bodyText: string): ServiceFault {
  const body = parseJsonObject(bodyText);
  if (body === undefined) return { status: httpStatus, error: undefined, description: undefined };
  const meta = isObject(body['meta']) ? body['meta'] : {};
  const rawCode = meta['code'];
  const metaCode =
    typeof rawCode === 'number' ? rawCode : typeof rawCode === 'string' && /^\d+$/.test(rawCode) ? Number(rawCode) : undefined;
  return {
    // An alternative shape may answer HTTP 200 with the real status in meta.code.
    status: httpStatus >= 200 && httpStatus < 300 && metaCode !== undefined ? metaCode : httpStatus,
    error: text(body['error']) ?? text(meta['error_type']),
    description: text(body['error_description']) ?? text(meta['error_message']),
  };
}

function parseJsonObject(bodyText: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(bodyText);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
