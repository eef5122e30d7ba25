import { HANDOVER, type ApiContext, type Route } from '../api-types.js';
import { isGone } from '../gone-contacts.js';
import type { HandoverRecord } from '../model.js';
import type { Runtime } from '../runtime.js';
import { invalidParameter, notFound } from '../sim-error.js';

/** Channels whose contacts can be handed over (live chat, WhatsApp, Viber, Twilio). */
export const HANDOVER_SERVICES = new Set(['web', 'whatsapp', 'viber', 'twilio']);

export function presentHandover(rt: Runtime, service: string, serviceId: string, h: HandoverRecord): Record<string, unknown> {
  // Guess `handover_date_hidden`: the description shows the owner and no more.
  if (rt.realism.handover_date_hidden) return { service, service_id: serviceId, owner: h.owner, application_id: h.applicationId };
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

function handler(change: (ctx: ApiContext) => HandoverRecord | undefined, newContacts404 = false) {
  return (ctx: ApiContext): unknown => {
    const { service, serviceId } = target(ctx);
    // Guess `handover_404_new_contacts`: a contact never handed over has no handover item to read or change.
    if (newContacts404 && ctx.rt.realism.handover_404_new_contacts && !ctx.rt.state.hasHandover(service, serviceId))
      throw notFound(`No handover for ${service} contact '${serviceId}'`);
    const next = change(ctx);
    if (next) ctx.rt.state.setHandover(service, serviceId, next);
    const now = ctx.rt.state.handover(service, serviceId);
    // Kept in the request log: who held the contact at this call, in the log's own order (the chaos judge reads it).
    ctx.logged = { owner: now.owner };
    return presentHandover(ctx.rt, service, serviceId, now);
  };
}

export const handoverRoutes: Route[] = [
  {
    pattern: '/:account/inbox/handover/:service/:service_id',
    ops: {
      GET: { scopes: HANDOVER, params: [], handler: handler(() => undefined, true) },
      POST: {
        scopes: HANDOVER,
        params: [],
        handler: handler((ctx) => ({ owner: 'agents', applicationId: null, updated: ctx.rt.now() }), true),
      },
      DELETE: {
        scopes: HANDOVER,
        params: [],
        handler: handler((ctx) => ({ owner: 'application', applicationId: ctx.rt.state.application.id, updated: ctx.rt.now() })),
      },
    },
  },
];
