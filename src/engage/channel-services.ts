/** How a served channel is named in handover paths and in a mention's `source.service`. */
export interface ChannelService {
  handoverService: string;
  sourceService: string;
}

/** Defaults from the conventions; configuration may override them. */
export const DEFAULT_CHANNEL_SERVICES: Readonly<Record<string, Readonly<ChannelService>>> = {
  web: { handoverService: 'web', sourceService: 'web' },
  whatsapp: { handoverService: 'whatsapp', sourceService: 'whatsapp' },
  viber: { handoverService: 'viber', sourceService: 'viber' },
  twilio: { handoverService: 'twilio', sourceService: 'twilio' },
};

/** The `{service}` values the handover endpoints accept by default. */
export const DEFAULT_HANDOVER_SERVICES: readonly string[] = Object.values(DEFAULT_CHANNEL_SERVICES).map((c) => c.handoverService);
