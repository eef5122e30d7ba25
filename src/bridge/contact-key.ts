import { conversationKey } from '../storage/index.js';

/** The store keys a contact as `channel:serviceId` (its `conversationKey`); managers and Slack write `channel/serviceId`. */
export const contactKey = conversationKey;

export function splitKey(key: string): { channel: string; service: string; serviceId: string } {
  const at = key.indexOf(':');
  const channel = at < 0 ? key : key.slice(0, at);
  const serviceId = at < 0 ? '' : key.slice(at + 1);
  return { channel, service: channel, serviceId };
}

/** `whatsapp/324...` (the managers' form) to the store key; undefined when it is not of that form. */
export function keyFromSlashForm(text: string): string | undefined {
  const m = /^([a-z]+)\/(.+)$/.exec(text.trim());
  return m ? contactKey(m[1] as string, m[2] as string) : undefined;
}

export function slashForm(key: string): string {
  const { channel, serviceId } = splitKey(key);
  return `${channel}/${serviceId}`;
}
