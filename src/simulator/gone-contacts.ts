import { z } from 'zod';
import type { Runtime } from './runtime.js';

/** A contact the service no longer finds (deleted in the tool, or an author it never made a contact for). */
export const goneContactSchema = z.strictObject({
  channel: z.string().min(1),
  service_id: z.union([z.string().min(1), z.number().int().nonnegative()]).transform(String),
});
export type GoneContact = z.output<typeof goneContactSchema>;

/** `POST /_sim/contact/gone`: `gone: false` brings the contact back. */
export const goneControlSchema = goneContactSchema.extend({ gone: z.boolean().optional() });

export function isGone(rt: Runtime, channel: string, serviceId: string): boolean {
  return rt.realism.gone_contacts.some((g) => g.channel === channel && g.service_id === serviceId);
}

/** The list with one contact added (`gone`) or removed, each contact at most once. */
export function withGone(list: readonly GoneContact[], contact: GoneContact, gone: boolean): GoneContact[] {
  const rest = list.filter((g) => g.channel !== contact.channel || g.service_id !== contact.service_id);
  return gone ? [...rest, { channel: contact.channel, service_id: contact.service_id }] : rest;
}
