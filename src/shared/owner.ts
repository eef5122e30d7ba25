/**
 * Who owns a contact, as the bridge knows it: the bot (the application holds the handover), agents
 * (people in the service's tool), paused (a manager stopped the bot for it), or unknown (not yet asked).
 */
export const OWNERS = ['bot', 'agents', 'paused', 'unknown'] as const;
export type Owner = (typeof OWNERS)[number];

/** The two owners a contact can be handed to. */
export type HandoverTarget = Extract<Owner, 'bot' | 'agents'>;
