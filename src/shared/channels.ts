/** The chat channels the bridge serves, by their handover service names. */
export const CHANNELS = ['web', 'whatsapp', 'viber', 'twilio'] as const;
export type Channel = (typeof CHANNELS)[number];
