import type { RequestEntry } from './sim-client.js';

/** The contact (service id) a logged API request was about, or undefined for account-wide calls such as polls. */
export function contactOf(r: RequestEntry, mentionContacts: ReadonlyMap<string, string>): string | undefined {
  const parts = r.path.split('/').filter((p) => p.length > 0);
  if (parts[1] === 'inbox' && (parts[2] === 'handover' || parts[2] === 'contact') && parts.length >= 5)
    return decodeURIComponent(parts[4]!);
  if (parts[1] === 'inbox' && parts[2] === 'mention' && parts.length >= 5) return mentionContacts.get(parts[4]!);
  if (parts[1] === 'publisher' && parts[2] === 'add') {
    // Replies go out from the account's own profile: the mention replied to names the contact.
    const byMention = r.params.mention_id ? mentionContacts.get(r.params.mention_id) : undefined;
    if (byMention !== undefined) return byMention;
    try {
      const services = JSON.parse(r.params.services ?? '[]') as Array<{ service_id?: unknown }>;
      const id = services[0]?.service_id;
      if (id !== undefined) return String(id);
    } catch {
      // a cut or odd value: fall back to the mention
    }
    return r.params.mention_id ? mentionContacts.get(r.params.mention_id) : undefined;
  }
  return undefined;
}

/** How many of `requests` were about each of `contacts`. */
export function callsAbout(
  requests: readonly RequestEntry[],
  contacts: ReadonlySet<string>,
  mentionContacts: ReadonlyMap<string, string>,
): number {
  let n = 0;
  for (const r of requests) {
    const c = contactOf(r, mentionContacts);
    if (c !== undefined && contacts.has(c)) n++;
  }
  return n;
}

/** True when the request is a handover to agents (POST) of the contact. */
export function isHandoverToAgents(r: RequestEntry): boolean {
  return r.method === 'POST' && /\/inbox\/handover\//.test(r.path) && r.status === 200;
}
