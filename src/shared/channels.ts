/** The chat channels the bridge serves, by their handover service names. */
export const CHANNELS = ['web', 'whatsapp', 'viber', 'twilio'] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * Hours after the customer's last message during which a free-form message may be sent (the channel's
 * customer-service window); a channel not listed has none.
 */
export const SERVICE_WINDOW_HOURS: Readonly<Partial<Record<Channel, number>>> = { whatsapp: 24, viber: 24 };
