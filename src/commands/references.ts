import type { ContactAddress, ContactKey } from './ports.js';

export interface MentionRef {
  readonly topicId: string;
  readonly mentionId: string;
}

export type RefResult<T> = { ok: true; value: T } | { ok: false; error: string };

const ID = '[A-Za-z0-9_-]+';
const SERVICE = '[a-z][a-z0-9_]*';
const SERVICE_ID = '[^/\\s?#]+';

const MENTION_PLAIN = new RegExp(`^(\\d+)/(${ID})$`);
const MENTION_LINK = new RegExp(`^https?://[^/\\s]+/messages/${ID}/permalink/(\\d+)/(${ID})/?(?:[?#].*)?$`);
const SERVICE_REF = new RegExp(`^(${SERVICE})/(${SERVICE_ID})$`);
const CONTACT_ID = new RegExp(`^${ID}$`);
const CONTACT_LINK_ID = new RegExp(`^https?://[^/\\s]+/(?:[^?#\\s]*/)?contacts?/(${ID})/?(?:[?#].*)?$`);
const CONTACT_LINK_SERVICE = new RegExp(`^https?://[^/\\s]+/(?:[^?#\\s]*/)?contacts?/(${SERVICE})/(${SERVICE_ID})/?(?:[?#].*)?$`);

export const MENTION_REF_HELP =
  'TOPIC_ID/MENTION_ID (e.g. 2001/9001) or a mention permalink (https://app.engagor.com/messages/1001/permalink/2001/9001/)';
export const CONTACT_REF_HELP =
  'a contact id (e.g. 5001), SERVICE/SERVICE_ID (e.g. whatsapp/32470000001) or a contact permalink ' +
  '(any link whose path ends in /contact/CONTACT_ID/ or /contact/SERVICE/SERVICE_ID/)';
export const SERVICE_REF_HELP = 'SERVICE/SERVICE_ID (e.g. whatsapp/32470000001)';

// Slack wraps links it recognises in angle brackets, optionally with a label: <https://x|x>.
function unwrapSlackLink(text: string): string {
  const m = /^<([^|>]+)(?:\|[^>]*)?>$/.exec(text);
  return m ? (m[1] as string) : text;
}

export function parseMentionRef(text: string): RefResult<MentionRef> {
  const input = unwrapSlackLink(text);
  const m = MENTION_PLAIN.exec(input) ?? MENTION_LINK.exec(input);
  if (!m) return { ok: false, error: `"${clip(text)}" is not a mention: use ${MENTION_REF_HELP}` };
  return { ok: true, value: { topicId: m[1] as string, mentionId: m[2] as string } };
}

export function parseServiceRef(text: string): RefResult<ContactKey> {
  const m = SERVICE_REF.exec(text);
  if (!m) return { ok: false, error: `"${clip(text)}" is not a contact on a channel: use ${SERVICE_REF_HELP}` };
  return { ok: true, value: { service: m[1] as string, serviceId: m[2] as string } };
}

export function parseContactRef(text: string): RefResult<ContactAddress> {
  const input = unwrapSlackLink(text);
  const bad = { ok: false as const, error: `"${clip(text)}" is not a contact: use ${CONTACT_REF_HELP}` };
  const linkByService = CONTACT_LINK_SERVICE.exec(input);
  const byService = SERVICE_REF.exec(input) ?? linkByService;
  if (byService) {
    const service = byService[1] as string;
    if (service === 'instagram') {
      return {
        ok: false,
        error: 'Instagram contacts cannot be addressed by service and id: use the contact id or its permalink',
      };
    }
    return { ok: true, value: { service, serviceId: byService[2] as string } };
  }
  const byId = CONTACT_ID.exec(input) ?? CONTACT_LINK_ID.exec(input);
  if (byId) return { ok: true, value: { id: (byId[1] ?? byId[0]) as string } };
  return bad;
}

export function describeContact(ref: ContactAddress): string {
  return 'id' in ref ? `contact ${ref.id}` : `${ref.service}/${ref.serviceId}`;
}

export function clip(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
