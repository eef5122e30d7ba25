import { readOwnership, type Ownership } from '../read-ownership.js';
import { handoverItemSchema, type HandoverItem } from '../schemas/handover-item.js';
import { checkId, refuse } from './client-rules.js';
import type { ResourceContext } from './resource-context.js';

const TEMPLATE = '/{account_id}/inbox/handover/{service}/{service_id}';

/** A contact on a handover channel: the channel's service value and the contact's id there. */
export interface HandoverRef {
  service: string;
  serviceId: string | number;
}

export function handoverResource(ctx: ResourceContext) {
  const call = async (method: 'GET' | 'POST' | 'DELETE', ref: HandoverRef): Promise<HandoverItem> => {
    const site = { method, template: TEMPLATE };
    if (!ctx.handoverServices.includes(ref.service)) {
      throw refuse(site, `handover is not available for service "${ref.service}" (use one of ${ctx.handoverServices.join(', ')})`);
    }
    const serviceId = checkId(site, 'serviceId', ref.serviceId);
    // Both writes are idempotent (they set an owner), so every handover call may be retried.
    return ctx.executor.json(
      {
        method,
        template: TEMPLATE,
        pathValues: { service: ref.service, service_id: serviceId },
        idempotent: true,
        requestClass: 'handover',
      },
      handoverItemSchema,
    );
  };
  return {
    /** The current owner, unchanged. */
    get: (ref: HandoverRef) => call('GET', ref),
    /** The service's agents take the contact. */
    toAgents: (ref: HandoverRef) => call('POST', ref),
    /** The application (bot) becomes the owner again. */
    toApplication: (ref: HandoverRef) => call('DELETE', ref),
    /** GET, read through `readOwnership`. */
    ownership: async (ref: HandoverRef): Promise<Ownership> => readOwnership(await call('GET', ref)),
  };
}
