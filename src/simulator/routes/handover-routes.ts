import { HANDOVER, type ApiContext, type Route } from '../api-types.js';
import { isGone } from '../gone-contacts.js';
import type { HandoverRecord } from '../model.js';
import { invalidParameter, notFound } from '../sim-error.js';

/** Channels whose contacts can be handed over (live chat, WhatsApp, Viber, Twilio). */
export const HANDOVER_SERVICES = new Set(['web', 'whatsapp', 'viber', 'twilio']);

export function presentHandover(service: string, serviceId: string, h: HandoverRecord): Record<string, unknown> {
  return { service, service_id: serviceId, owner: h.owner, application_id: h.applicationId, date: { updated: h.updated } };
}

function target(ctx: ApiContext): { service: string; serviceId: string } {
  const service = ctx.path.service ?? '';
  const serviceId = ctx.path.service_id ?? '';
  if (!HANDOVER_SERVICES.has(service)) {
    throw invalidParameter(`Handover is not supported for service '${service}' (supported: ${[...HANDOVER_SERVICES].join(', ')})`);
  }
  if (!ctx.rt.state.contactByService(service, serviceId) || isGone(ctx.rt, service, serviceId))
    throw notFound(`No ${service} contact '${serviceId}'`);
  return { service, serviceId };
}

function handler(change: (ctx: ApiContext) => HandoverRecord | undefined) {
  return (ctx: ApiContext): unknown => {
    const { service, serviceId } = target(ctx);
    const next = change(ctx);
    if (next) ctx.rt.state.setHandover(service, serviceId, next);
    const now = ctx.rt.state.handover(service, serviceId);
    // Kept in the request log: who held the contact at this call, in the log's own order (the chaos judge reads it).
    ctx.logged = { owner: now.owner };
    return presentHandover(service, serviceId, now);
  };
}

export const handoverRoutes: Route[] = [
  {
    pattern: '/:account/inbox/handover/:service/:service_id',
    ops: {
      GET: { scopes: HANDOVER, params: [], handler: handler(() => undefined) },
      POST: { scopes: HANDOVER, params: [], handler: handler((ctx) => ({ owner: 'agents', applicationId: null, updated: ctx.rt.now() })) },
      DELETE: {
        scopes: HANDOVER,
        params: [],
        handler: handler((ctx) => ({ owner: 'application', applicationId: ctx.rt.state.application.id, updated: ctx.rt.now() })),
      },
    },
  },
];
