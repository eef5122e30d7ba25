import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';
import { withMappedHandover } from '../../src/bridge/ownership/mapped-handover.js';
import type { BridgeEngage } from '../../src/bridge/bridge-engage.js';

describe('ENGAGE_CHANNEL_SERVICES: the channel → service mapping is a setting', () => {
  it("defaults to today's values: every channel's own name for both the handover path and source.service", () => {
    const config = parseConfig({ env: {} });
    expect(config.engage.channelServices).toEqual({
      web: { handoverService: 'web', sourceService: 'web' },
      whatsapp: { handoverService: 'whatsapp', sourceService: 'whatsapp' },
      viber: { handoverService: 'viber', sourceService: 'viber' },
      twilio: { handoverService: 'twilio', sourceService: 'twilio' },
    });
  });

  it('overrides the channels it names, both names or each, and keeps the others', () => {
    const config = parseConfig({ env: { ENGAGE_CHANNEL_SERVICES: 'web=livechat, whatsapp=wa/whatsapp_business' } });
    expect(config.engage.channelServices['web']).toEqual({ handoverService: 'livechat', sourceService: 'livechat' });
    expect(config.engage.channelServices['whatsapp']).toEqual({ handoverService: 'wa', sourceService: 'whatsapp_business' });
    expect(config.engage.channelServices['viber']).toEqual({ handoverService: 'viber', sourceService: 'viber' });
  });

  it('refuses an unknown channel or a malformed entry with a clear message', () => {
    expect(() => parseConfig({ env: { ENGAGE_CHANNEL_SERVICES: 'telegram=tg' } })).toThrow(ConfigError);
    expect(() => parseConfig({ env: { ENGAGE_CHANNEL_SERVICES: 'whatsapp' } })).toThrow(/channel=service/);
  });

  it("sends the bridge's handover calls to the configured service", async () => {
    const seen: string[] = [];
    const record = async (ref: { service: string }) => {
      seen.push(ref.service);
      return { owner: 'agents' } as never;
    };
    const engage = { handover: { get: record, toAgents: record, toApplication: record } } as unknown as BridgeEngage;
    const config = parseConfig({ env: { ENGAGE_CHANNEL_SERVICES: 'web=livechat' } });
    const mapped = withMappedHandover(engage, config.engage.channelServices);
    await mapped.handover.toAgents({ service: 'web', serviceId: '1' });
    await mapped.handover.get({ service: 'whatsapp', serviceId: '2' });
    expect(seen).toEqual(['livechat', 'whatsapp']);
  });
});
