import type { CommandSpec } from './command-types.js';
import { describeFailure } from './describe-failure.js';
import { contactKeyText } from './ports.js';
import { SERVICE_REF_HELP, parseServiceRef } from './references.js';

export const botCommand: CommandSpec<'bot'> = {
  name: 'bot',
  usage: ['bot pause|resume [<service>/<service_id>]'],
  summary: 'stops or restarts the bot for one contact, or for every contact when none is named',
  details: [
    `<service>/<service_id> is ${SERVICE_REF_HELP}.`,
    'While paused the bot records messages but sends nothing; agents are not asked to take over.',
  ],
  examples: ['bot pause', 'bot resume', 'bot pause whatsapp/32470000001'],
  parse(args) {
    const [verb, ref, ...extra] = args;
    const action = verb?.toLowerCase();
    if (action !== 'pause' && action !== 'resume') {
      return { ok: false, error: verb === undefined ? 'say pause or resume' : `"${verb}" is not pause or resume` };
    }
    if (extra.length > 0) return { ok: false, error: `unexpected "${extra.join(' ')}"` };
    if (ref === undefined) return { ok: true, command: { name: 'bot', action } };
    const contact = parseServiceRef(ref);
    if (!contact.ok) return contact;
    return { ok: true, command: { name: 'bot', action, contact: contact.value } };
  },
  subject: (c) => (c.contact ? contactKeyText(c.contact) : 'all contacts'),
  async run(c, { deps, actor }) {
    const target = c.contact ? contactKeyText(c.contact) : 'all';
    const who = c.contact ? target : 'every contact';
    const verb = c.action === 'pause' ? 'paused' : 'resumed';
    try {
      const change = c.action === 'pause' ? await deps.bridge.pauseBot(target, actor) : await deps.bridge.resumeBot(target, actor);
      if (!change.changed) {
        return { ok: true, text: `The bot was already ${verb} for ${who}: nothing changed.`, changed: {} };
      }
      const owners = change.from !== undefined && change.to !== undefined ? ` (${change.from} → ${change.to})` : '';
      return {
        ok: true,
        text: `Bot ${verb} for ${who}${owners}.`,
        changed: { target, action: c.action, from: change.from, to: change.to },
      };
    } catch (error) {
      return { ok: false, text: `${describeFailure(error, who)} The bot was not ${verb}.` };
    }
  },
};
