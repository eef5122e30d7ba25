import type { HandoverItem } from '../engage/schemas/index.js';
import type { CommandSpec } from './command-types.js';
import { describeFailure } from './describe-failure.js';
import { formatSince } from './format-since.js';
import { contactKeyText, type OwnerView } from './ports.js';
import { SERVICE_REF_HELP, parseServiceRef } from './references.js';

const ACTIONS = ['status', 'bot', 'agents'] as const;
type HandoverAction = (typeof ACTIONS)[number];

function bridgeView(view: OwnerView | undefined, nowMs: number): string {
  if (!view) return 'the bridge has not seen this contact';
  const since = view.sinceMs === undefined ? '' : ` since ${formatSince(view.sinceMs, nowMs)}`;
  return `the bridge: ${view.owner}${since}${view.reason ? ` (${view.reason})` : ''}`;
}

function serviceView(item: HandoverItem, nowMs: number): string {
  const owner = item.owner === 'application' ? 'the bot (application)' : 'agents';
  const updated = item.date?.updated;
  if (updated === null || updated === undefined) return `Engage: ${owner}, never handed over`;
  return `Engage: ${owner} since ${formatSince(updated * 1000, nowMs)}`;
}

export const handoverCommand: CommandSpec<'handover'> = {
  name: 'handover',
  usage: ['handover <service>/<service_id> [status|bot|agents]'],
  summary: 'shows who owns a contact (status, the default), or hands it to the bot or to the agents',
  details: [
    `<service>/<service_id> is ${SERVICE_REF_HELP}; service is web, whatsapp, viber or twilio.`,
    'bot: the bot answers again; agents: the bot stays silent and people answer.',
  ],
  examples: ['handover whatsapp/32470000001', 'handover whatsapp/32470000001 agents', 'handover web/v-123 bot'],
  parse(args) {
    const [ref, action, ...extra] = args;
    if (ref === undefined) return { ok: false, error: 'say which contact' };
    const contact = parseServiceRef(ref);
    if (!contact.ok) return contact;
    const chosen = (action ?? 'status').toLowerCase();
    if (!(ACTIONS as readonly string[]).includes(chosen)) {
      return { ok: false, error: `"${action}" is not status, bot or agents` };
    }
    if (extra.length > 0) return { ok: false, error: `unexpected "${extra.join(' ')}"` };
    return { ok: true, command: { name: 'handover', contact: contact.value, action: chosen as HandoverAction } };
  },
  subject: (c) => contactKeyText(c.contact),
  async run(c, { deps, actor }) {
    const key = contactKeyText(c.contact);
    const nowMs = deps.now().getTime();
    if (c.action === 'status') {
      let view: OwnerView | undefined;
      try {
        view = await deps.bridge.getOwner(key);
      } catch (error) {
        return { ok: false, text: describeFailure(error, key) };
      }
      try {
        const item = await deps.engage.handover.get(c.contact);
        return { ok: true, text: `${key}: ${bridgeView(view, nowMs)}; ${serviceView(item, nowMs)}.` };
      } catch (error) {
        return { ok: false, text: `${key}: ${bridgeView(view, nowMs)}. ${describeFailure(error, key)}` };
      }
    }
    try {
      const change = await deps.bridge.setOwner(key, c.action, actor);
      const text =
        change.from === change.to
          ? `${key} already belonged to ${change.to}: nothing changed.`
          : `${key} now belongs to ${change.to}${change.from ? ` (was ${change.from})` : ''}.`;
      return { ok: true, text, changed: { contact: key, from: change.from, to: change.to } };
    } catch (error) {
      return { ok: false, text: `${describeFailure(error, key)} Check with: handover ${key} status` };
    }
  },
};
