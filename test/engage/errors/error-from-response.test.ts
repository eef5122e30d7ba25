import { describe, expect, it } from 'vitest';
import {
  AuthError,
  EngageError,
  errorFromResponse,
  InsufficientScopeError,
  InvalidParameterError,
  MalformedResponseError,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnexpectedStatusError,
} from '../../../src/engage/index.js';

const NOW = 1_700_000_000_000;
const fail = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  errorFromResponse({
    method: 'GET',
    path: '/1001/inbox/mentions',
    status,
    headers,
    bodyText: typeof body === 'string' ? body : JSON.stringify(body),
    nowMs: NOW,
  });

describe('errorFromResponse', () => {
  it('maps a 400 invalid_parameter OAuth body to InvalidParameterError with the description', () => {
    const error = fail(400, { error: 'invalid_parameter', error_description: "Country 'Belgum' is not recognised" });
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect(error).toBeInstanceOf(EngageError);
    expect(error.code).toBe('invalid_parameter');
    expect(error.status).toBe(400);
    expect(error.description).toBe("Country 'Belgum' is not recognised");
    expect(error.method).toBe('GET');
    expect(error.path).toBe('/1001/inbox/mentions');
    expect(error.humanMessage).toContain('Belgum');
  });

  it('maps 401 to AuthError with the re-authorise sentence', () => {
    const error = fail(401, { error: 'invalid_token', error_description: 'revoked' });
    expect(error).toBeInstanceOf(AuthError);
    expect(error.humanMessage).toBe('the user changed their password or revoked access: re-authorise');
  });

  it('maps 403 to InsufficientScopeError, 404 to NotFoundError and 5xx to ServerError', () => {
    expect(fail(403, { error: 'insufficient_scope' })).toBeInstanceOf(InsufficientScopeError);
    expect(fail(404, { error: 'not_found' })).toBeInstanceOf(NotFoundError);
    expect(fail(502, { error: 'server_error' })).toBeInstanceOf(ServerError);
    expect(fail(503, 'x')).toBeInstanceOf(ServerError);
  });

  it('maps 405 invalid_request to InvalidParameterError', () => {
    expect(fail(405, { error: 'invalid_request' })).toBeInstanceOf(InvalidParameterError);
  });

  it('treats 429 and 400 rate_limit_reached alike as RateLimitError', () => {
    expect(fail(429, {})).toBeInstanceOf(RateLimitError);
    const error = fail(400, { error: 'rate_limit_reached', error_description: 'slow down' });
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.code).toBe('rate_limited');
  });

  it('lets Retry-After win over the reset header for the wait', () => {
    const error = fail(429, {}, { 'retry-after': '7', 'x-ratelimit-reset': String(NOW / 1000 + 30) }) as RateLimitError;
    expect(error.retryAfterMs).toBe(7000);
  });

  it('waits until x-ratelimit-reset when there is no Retry-After', () => {
    const error = fail(429, {}, { 'x-ratelimit-reset': String(NOW / 1000 + 30) }) as RateLimitError;
    expect(error.retryAfterMs).toBe(30_000);
  });

  it('waits 60 s when the reset header is missing', () => {
    expect((fail(400, { error: 'rate_limit_reached' }) as RateLimitError).retryAfterMs).toBe(60_000);
  });

  it('reads the alternative meta.code / meta.error_type / meta.error_message shape', () => {
    const error = fail(200, { meta: { code: 404, error_type: 'not_found', error_message: 'no such mention' } });
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.status).toBe(404);
    expect(error.serviceError).toBe('not_found');
    expect(error.description).toBe('no such mention');
  });

  it('decides on the HTTP status alone for a non-JSON body such as a proxy page', () => {
    const error = fail(502, '<html><body>Bad gateway</body></html>');
    expect(error).toBeInstanceOf(ServerError);
    expect(error.serviceError).toBeUndefined();
    expect(fail(401, '<html>nope</html>')).toBeInstanceOf(AuthError);
  });

  it('names an unexpected status as such', () => {
    expect(fail(409, { error: 'conflict' })).toBeInstanceOf(UnexpectedStatusError);
    expect(fail(200, { meta: { code: 200 } })).toBeInstanceOf(MalformedResponseError);
  });

  it('puts method, path, status and the service words in the technical message', () => {
    expect(fail(404, { error: 'not_found', error_description: 'gone' }).message).toBe(
      'GET /1001/inbox/mentions failed (HTTP 404, not_found): not_found: gone',
    );
  });
});
