import type { IncomingMessage, ServerResponse } from 'node:http';
import { refuseControlRequest } from './control-guard.js';
import { z } from 'zod';
import { faultsSchema } from './faults.js';
import { guessRealismShape } from './guesses.js';
import { RATE_LIMIT_HEADER_VARIANTS } from './rate-limit-headers.js';
import { goneContactSchema, goneControlSchema, withGone } from './gone-contacts.js';
import { readBody, sendError, sendJson } from './http-io.js';
import {
  agentReplySchema,
  agentResolveSchema,
  handoverSchema,
  inboundSchema,
  simulateAgentReply,
  simulateAgentResolve,
  simulateHandover,
  simulateInbound,
} from './sim-control.js';
import { SimError, invalidParameter, notFound } from './sim-error.js';
import type { Simulator } from './simulator.js';

const idText = z.union([z.string().min(1), z.number().int().nonnegative()]).transform(String);
const tokenSchema = z.strictObject({ token: z.string().min(1), user_id: idText, scopes: z.array(z.string().min(1)) });
const revokeSchema = z.strictObject({ user_id: idText });
const clockSchema = z.strictObject({ now: z.number().int().nonnegative().optional() });
/** The realism switches `POST /_sim/realism` and `simulator --realism` take. */
export const realismSchema = z.strictObject({
  timestamp_ties: z.union([z.boolean(), z.number().int().min(1).max(3600)]).optional(),
  indexing_delay_ms: z.number().int().min(0).max(600_000).optional(),
  extra_fields: z.boolean().optional(),
  clock_offset_seconds: z.number().int().min(-86_400).max(86_400).optional(),
  late_indexing_seconds: z.number().int().min(0).max(3600).optional(),
  rate_limit_headers: z.enum(RATE_LIMIT_HEADER_VARIANTS).optional(),
  gone_contacts: z.array(goneContactSchema).max(10_000).optional(),
  odd_item_rate: z.number().min(0).max(1).optional(),
  omit_thread_id_sources: z
    .array(z.string().regex(/^[a-z0-9_-]{1,40}$/, 'must be a source service name like facebook'))
    .max(50)
    .optional(),
  overlapping_mention_ids: z.boolean().optional(),
  ...guessRealismShape,
});
const webhookSchema = z.strictObject({ url: z.url({ protocol: /^https?$/ }).optional() });
const rateLimitSchema = z.strictObject({
  user_id: idText.optional(),
  limit: z.number().int().positive().optional(),
  window_seconds: z.number().int().positive().optional(),
});

type Handler = (sim: Simulator, body: unknown, query: URLSearchParams) => [number, unknown];

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
  throw invalidParameter(`${where}: ${issue?.message ?? 'invalid'}`);
}

function readAfter(query: URLSearchParams): { after: number; limit: number } {
  const after = query.get('after') ?? '0';
  const limit = query.get('limit') ?? '10000';
  if (!/^\d+$/.test(after)) throw invalidParameter("Parameter 'after' must be a sequence number");
  if (!/^\d+$/.test(limit) || Number(limit) < 1) throw invalidParameter("Parameter 'limit' must be a positive integer");
  return { after: Number(after), limit: Math.min(Number(limit), 100_000) };
}

const ROUTES: Record<string, Partial<Record<'GET' | 'POST', Handler>>> = {
  '/_sim/inbound': { POST: (sim, body) => [201, simulateInbound(sim, parse(inboundSchema, body))] },
  '/_sim/outbound': {
    GET: (sim, _b, q) => {
      const { after, limit } = readAfter(q);
      return [200, sim.outbound.after(after, limit)];
    },
  },
  '/_sim/requests': {
    GET: (sim, _b, q) => {
      const { after, limit } = readAfter(q);
      return [200, sim.requests.after(after, limit)];
    },
  },
  '/_sim/agent/reply': { POST: (sim, body) => [200, simulateAgentReply(sim, parse(agentReplySchema, body))] },
  '/_sim/agent/resolve': { POST: (sim, body) => [200, simulateAgentResolve(sim, parse(agentResolveSchema, body))] },
  '/_sim/handover': { POST: (sim, body) => [200, simulateHandover(sim, parse(handoverSchema, body))] },
  '/_sim/faults': {
    GET: (sim) => [200, sim.faults],
    POST: (sim, body) => {
      sim.setFaults(parse(faultsSchema, body));
      return [200, sim.faults];
    },
  },
  '/_sim/tokens': {
    POST: (sim, body) => {
      const t = parse(tokenSchema, body);
      sim.addToken(t.token, t.user_id, t.scopes);
      return [201, { user_id: t.user_id, scopes: t.scopes }];
    },
  },
  '/_sim/revoke': { POST: (sim, body) => [200, { revoked: sim.revoke(parse(revokeSchema, body).user_id) }] },
  '/_sim/clock': {
    POST: (sim, body) => {
      sim.setClock(parse(clockSchema, body).now);
      return [200, { now: sim.ownNow() }];
    },
  },
  '/_sim/reset': {
    POST: (sim) => {
      sim.reset();
      return [200, { reset: true }];
    },
  },
  '/_sim/realism': {
    GET: (sim) => [200, sim.realism],
    POST: (sim, body) => {
      const r = parse(realismSchema, body);
      sim.setRealism(Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)));
      return [200, sim.realism];
    },
  },
  '/_sim/contact/gone': {
    POST: (sim, body) => {
      const { gone, ...contact } = parse(goneControlSchema, body);
      sim.setRealism({ gone_contacts: withGone(sim.realism.gone_contacts, contact, gone ?? true) });
      return [200, { gone_contacts: sim.realism.gone_contacts }];
    },
  },
  '/_sim/webhooks': {
    GET: (sim) => [200, sim.webhooks.status()],
    POST: (sim, body) => {
      sim.webhooks.setUrl(parse(webhookSchema, body).url ?? null);
      return [200, sim.webhooks.status()];
    },
  },
  '/_sim/rate-limit': {
    POST: (sim, body) => {
      const r = parse(rateLimitSchema, body);
      const limit = r.limit !== undefined ? { limit: r.limit, window_seconds: r.window_seconds ?? 60 } : null;
      if (!limit && r.user_id === undefined) throw invalidParameter('Give limit (and window_seconds), or user_id alone to clear');
      sim.setRateLimit(r.user_id ?? null, limit);
      return [200, r.user_id ? { user_id: r.user_id, ...sim.limiter.limitFor(r.user_id) } : { default: limit }];
    },
  },
};

/** The control API under `/_sim/`: JSON in, JSON out, no token (the simulator listens on loopback, and refuses browsers). */
export async function handleControl(
  sim: Simulator,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  query: URLSearchParams,
): Promise<void> {
  try {
    const refused = refuseControlRequest(req.method, req.headers, req.socket.localPort);
    if (refused) {
      req.resume();
      throw new SimError(refused.status, refused.status === 415 ? 'invalid_request' : 'forbidden', refused.message);
    }
    const route = ROUTES[pathname.replace(/\/+$/, '')];
    if (!route) throw notFound(`No control route ${pathname}`);
    const method = req.method === 'GET' || req.method === 'POST' ? req.method : undefined;
    const handler = method ? route[method] : undefined;
    if (!handler)
      throw new SimError(405, 'invalid_request', `Method ${req.method ?? ''} is not allowed here`, {
        allow: Object.keys(route).join(', '),
      });
    let body: unknown = {};
    if (method === 'POST') {
      const text = await readBody(req);
      if (text.trim() !== '') {
        try {
          body = JSON.parse(text) as unknown;
        } catch {
          throw invalidParameter('The body must be JSON');
        }
      }
    } else req.resume();
    const [status, result] = handler(sim, body, query);
    sendJson(res, status, result);
  } catch (err) {
    sendError(res, err instanceof SimError ? err : new SimError(500, 'server_error', 'Internal simulator error'));
  }
}
