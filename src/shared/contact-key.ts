// A contact on a chat channel has two written forms: the store's key `channel:serviceId`, and the
// managers' form `channel/serviceId` (commands, Slack notices). Both are made and read only here.

/** The store's key for a contact's conversation: `channel:serviceId`. */
export function conversationKey(channel: string, serviceId: string): string {
  return `${channel}:${serviceId}`;
}

/** The parts of a store key (the channel is the handover service). */
export function splitKey(key: string): { channel: string; service: string; serviceId: string } {
  const at = key.indexOf(':');
  const channel = at < 0 ? key : key.slice(0, at);
  const serviceId = at < 0 ? '' : key.slice(at + 1);
  return { channel, service: channel, serviceId };
}

/** The managers' form `service/serviceId`. */
export function slashText(service: string, serviceId: string): string {
  return `${service}/${serviceId}`;
}

/** `whatsapp/324...` (the managers' form) to the store key; undefined when it is not of that form. */
export function keyFromSlashForm(text: string): string | undefined {
  const m = /^([a-z]+)\/(.+)$/.exec(text.trim());
  return m ? conversationKey(m[1] as string, m[2] as string) : undefined;
}

/** A store key in the managers' form. */
export function slashForm(key: string): string {
  const { channel, serviceId } = splitKey(key);
  return slashText(channel, serviceId);
}
