import { DEFAULT_CHANNEL_SERVICES, handoverServiceOf, type ChannelServices } from '../engage/index.js';
import type { BridgeEngage } from './bridge-engage.js';

/**
 * The bridge names a contact by its channel (`whatsapp:324…`); the handover path wants the channel's configured
 * `{service}` (ENGAGE_CHANNEL_SERVICES). One wrapper, so ownership and reconcile need not know the mapping.
 */
export function withMappedHandover(engage: BridgeEngage, services: ChannelServices = DEFAULT_CHANNEL_SERVICES): BridgeEngage {
  const map = <R extends { service: string }>(ref: R): R => ({ ...ref, service: handoverServiceOf(services, ref.service) });
  const h = engage.handover;
  return {
    ...engage,
    handover: {
      ...h,
      get: (ref) => h.get(map(ref)),
      toAgents: (ref) => h.toAgents(map(ref)),
      toApplication: (ref) => h.toApplication(map(ref)),
    },
  };
}
