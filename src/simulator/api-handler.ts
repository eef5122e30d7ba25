import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiContext, ApiMethod } from './api-types.js';
import { loosen, sendRefusal } from './guess-answers.js';
import { mergeParams, readBody, sendJson, sendText } from './http-io.js';
import { Params } from './params.js';
import { rateLimitHeaders } from './rate-limit-headers.js';
import type { RateLimiter } from './rate-limiter.js';
import type { Router } from './router.js';
import type { Runtime } from './runtime.js';
import { SimError, invalidParameter, notFound } from './sim-error.js';
import { toXml } from './to-xml.js';

const COMMON_PARAMS = ['version', 'access_token', 'format'];

export interface ApiDeps {
  rt: Runtime;
  router: Router;
  limiter: RateLimiter;
}

export interface ApiOutcome {
  status: number;
  params: Record<string, string>;
  /** The error code of a refusal (`rate_limit_reached`, `not_found`, …). */
  error?: string;
  /** What the request log keeps of a good answer (`ApiContext.logged`). */
  logged?: ApiContext['logged'];
}

async function readParams(rt: Runtime, req: IncomingMessage, query: URLSearchParams): Promise<Record<string, string>> {
  // Guess `delete_body_ignored`: a DELETE's form body is not read, only its query.
  if (req.method === 'GET' || req.method === 'HEAD' || (req.method === 'DELETE' && rt.realism.delete_body_ignored)) {
    req.resume();
    return mergeParams(query);
  }
  const body = await readBody(req);
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (body.trim() !== '' && type !== '' && !type.startsWith('application/x-www-form-urlencoded')) {
    throw invalidParameter('Send parameters as application/x-www-form-urlencoded (structured values as JSON text in a field)');
  }
  return mergeParams(query, new URLSearchParams(body));
}

function tokenOf(req: IncomingMessage, params: Record<string, string>): string | undefined {
  const header = req.headers.authorization;
  if (header) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (m) return m[1];
  }
  return params['access_token'] || undefined;
}

function readVersion(params: Params): number {
  const v = params.str('version');
  if (v === undefined || v === '') return 0;
  if (!/^\d{8}$/.test(v)) throw invalidParameter("Parameter 'version' must be a date like 20210601");
  return Number(v);
}

/** One Engage API request: auth, rate limit, routing, scopes, parameters, handler, envelope. */
export async function handleApi(
  deps: ApiDeps,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  query: URLSearchParams,
): Promise<ApiOutcome> {
  const { rt, router, limiter } = deps;
  let params: Record<string, string> = mergeParams(query);
  const variant = rt.realism.rate_limit_headers;
  // Every answer says the time on the service's clock (`Date`), and the reset is a moment on that same clock.
  const onServiceClock = (h: Record<string, string>): Record<string, string> => {
    const shift = rt.now() - Math.floor(rt.realMs() / 1000);
    const reset = h['x-ratelimit-reset'];
    return {
      ...h,
      ...(reset !== undefined ? { 'x-ratelimit-reset': String(Number(reset) + shift) } : {}),
      date: new Date(rt.now() * 1000).toUTCString(),
    };
  };
  let headers = onServiceClock(rateLimitHeaders(variant, limiter.peek(rt.realMs())));
  try {
    params = await readParams(rt, req, query);
    const token = tokenOf(req, params);
    if (!token) throw new SimError(401, 'invalid_token', 'An access token is required (Authorization: Bearer ...)');
    const record = rt.state.tokens.get(token);
    if (!record) throw new SimError(401, 'invalid_token', 'The access token is invalid');
    if (record.revoked) throw new SimError(401, 'invalid_token', 'The access token was revoked; authenticate again');
    const decision = limiter.take(record.userId, rt.realMs());
    headers = onServiceClock(rateLimitHeaders(variant, decision));
    if (!decision.allowed) {
      const retryAfter = Math.max(1, decision.resetAt - Math.floor(rt.realMs() / 1000));
      headers = onServiceClock(rateLimitHeaders(variant, decision, retryAfter));
      throw new SimError(400, 'rate_limit_reached', 'Rate limit reached; retry after the reset time');
    }
    const match = router.match(pathname);
    if (!match) throw notFound(`No API path ${pathname}`);
    const method = req.method as ApiMethod;
    const op = Object.hasOwn(match.route.ops, method) ? match.route.ops[method] : undefined;
    if (!op) {
      const allow = Object.keys(match.route.ops).join(', ');
      throw new SimError(405, 'invalid_request', `Method ${req.method ?? ''} is not allowed here (allowed: ${allow})`, { allow });
    }
    if (match.path.account !== undefined && match.path.account !== rt.state.account.id) {
      throw notFound(`Account '${match.path.account}' not found`);
    }
    const missing = op.scopes.filter((s) => !record.scopes.has(s));
    if (missing.length > 0) throw new SimError(403, 'insufficient_scope', `This operation needs the scope(s): ${missing.join(', ')}`);
    const p = new Params(params);
    const format = p.str('format') ?? 'json';
    if (format !== 'json' && format !== 'xml') throw invalidParameter("Parameter 'format' must be 'json' or 'xml'");
    const ctx: ApiContext = {
      rt,
      params: p,
      path: match.path,
      version: readVersion(p),
      userId: record.userId,
      warnings: [],
      baseUrl: rt.baseUrl(),
      pathname,
    };
    const response: unknown = await op.handler(ctx);
    for (const key of Object.keys(params)) {
      if (!COMMON_PARAMS.includes(key) && !op.params.includes(key)) ctx.warnings.push(`Unknown parameter '${key}' was ignored`);
    }
    const meta: Record<string, unknown> = { code: 200 };
    if (ctx.warnings.length > 0) meta['messages'] = ctx.warnings.map((text) => ({ type: 'message', text }));
    const envelope = rt.realism.loose_types ? loosen({ meta, response }) : { meta, response };
    if (ctx.answer) {
      // Guess `publish_answer_shape`: the handler chose another body than the envelope (none at all: `null`).
      if (ctx.answer.body === null) sendText(res, 200, 'application/json; charset=utf-8', '', headers);
      else sendJson(res, 200, ctx.answer.body, headers);
    } else if (format === 'xml') sendText(res, 200, 'application/xml; charset=utf-8', toXml(envelope), headers);
    else sendJson(res, 200, envelope, headers);
    return { status: 200, params, ...(ctx.logged ? { logged: ctx.logged } : {}) };
  } catch (err) {
    const simErr = err instanceof SimError ? err : new SimError(500, 'server_error', 'Internal simulator error');
    sendRefusal(res, rt, simErr, headers);
    return { status: simErr.status, params, error: simErr.code };
  }
}
