/** How a served channel is named in handover paths and in a mention's `source.service`. */
export interface ChannelService {
  handoverService: string;
  sourceService: string;
}

export type ChannelServices = Readonly<Record<string, Readonly<ChannelService>>>;

/**
 * Today's values (the conventions: the channel's own name for both). The default of ENGAGE_CHANNEL_SERVICES,
 * which overrides them per channel; the bridge, the client and doctor take the configured mapping.
 */
export const DEFAULT_CHANNEL_SERVICES: ChannelServices = {
  web: { handoverService: 'web', sourceService: 'web' },
  whatsapp: { handoverService: 'whatsapp', sourceService: 'whatsapp' },
  viber: { handoverService: 'viber', sourceService: 'viber' },
  twilio: { handoverService: 'twilio', sourceService: 'twilio' },
};

/** The `{service}` values the handover endpoints accept by default. */
export const DEFAULT_HANDOVER_SERVICES: readonly string[] = Object.values(DEFAULT_CHANNEL_SERVICES).map((c) => c.handoverService);

/** The setting's text for the defaults: `channel=service` (both names), or `channel=handover/source`. */
export const DEFAULT_CHANNEL_SERVICES_TEXT = Object.entries(DEFAULT_CHANNEL_SERVICES)
  .map(([channel, s]) =>
    s.handoverService === s.sourceService ? `${channel}=${s.handoverService}` : `${channel}=${s.handoverService}/${s.sourceService}`,
  )
  .join(',');

const NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * Reads `web=web,whatsapp=wa/whatsapp,...`: each entry overrides one known channel (`=service` sets both names,
 * `=handover/source` each); channels not named keep their defaults. Returns what is wrong, or the whole mapping.
 */
export function parseChannelServices(text: string): { ok: true; value: ChannelServices } | { ok: false; error: string } {
  const value: Record<string, ChannelService> = {};
  for (const [channel, s] of Object.entries(DEFAULT_CHANNEL_SERVICES)) value[channel] = { ...s };
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')) {
    const m = /^([^=]+)=([^/]+)(?:\/(.+))?$/.exec(entry);
    const channel = m?.[1]?.trim();
    const handover = m?.[2]?.trim();
    const source = (m?.[3] ?? m?.[2])?.trim();
    if (!m || !channel || !handover || !source) return { ok: false, error: `"${entry}" is not channel=service or channel=handover/source` };
    if (!(channel in DEFAULT_CHANNEL_SERVICES)) {
      return { ok: false, error: `"${channel}" is not a channel (one of ${Object.keys(DEFAULT_CHANNEL_SERVICES).join(', ')})` };
    }
    if (!NAME.test(handover) || !NAME.test(source)) return { ok: false, error: `"${entry}": service names are letters, digits, _ . or -` };
    value[channel] = { handoverService: handover, sourceService: source };
  }
  return { ok: true, value };
}

export function sourceServiceOf(services: ChannelServices, channel: string): string {
  return services[channel]?.sourceService ?? channel;
}

export function handoverServiceOf(services: ChannelServices, channel: string): string {
  return services[channel]?.handoverService ?? channel;
}
