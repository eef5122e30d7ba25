import { DEFAULT_CHANNEL_SERVICES, handoverServiceOf, type ChannelServices, type EngageClient } from '../../engage/index.js';

/**
 * The bridge names a contact by its channel (`whatsapp:324…`); the handover path wants the channel's configured
 * `{service}` (ENGAGE_CHANNEL_SERVICES). One wrapper, so ownership and reconcile need not know the mapping.
 */
export function withMappedHandover<E extends Pick<EngageClient, 'handover'>>(
  engage: E,
  services: ChannelServices = DEFAULT_CHANNEL_SERVICES,
): E {
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
