import { CONTACT_TYPES_NEEDING_TOPIC_IDS, type Contact } from '../engage/schemas/index.js';
import type { CommandAnswer, CommandOf, CommandSpec, ContactChanges, RunContext } from './command-types.js';
import { describeFailure } from './describe-failure.js';
import { changedFields, formatChangedFields, formatContact } from './format-contact.js';
import { CONTACT_FIELDS_HELP, parseContactChanges } from './parse-contact-changes.js';
import { planContactUpdate } from './plan-contact-update.js';
import type { ContactAddress, CommandDeps } from './ports.js';
import { CONTACT_REF_HELP, describeContact, parseContactRef } from './references.js';

// A contact addressed by id may be of any type, so it gets the topics too (the parameter is optional).
async function topicIdsFor(ref: ContactAddress, deps: CommandDeps): Promise<readonly string[] | undefined> {
  if ('service' in ref && !CONTACT_TYPES_NEEDING_TOPIC_IDS.includes(ref.service)) return undefined;
  const ids = await deps.bridge.watchedTopicIds();
  return ids.length > 0 ? ids : undefined;
}

async function showContact(c: CommandOf<'contact'>, { deps }: RunContext): Promise<CommandAnswer> {
  const subject = describeContact(c.contact);
  try {
    const topicIds = await topicIdsFor(c.contact, deps);
    const contact = await deps.engage.contacts.get(c.contact, topicIds ? { topicIds } : {});
    return { ok: true, text: formatContact(contact) };
  } catch (error) {
    return { ok: false, text: describeFailure(error, subject) };
  }
}

async function setContact(c: CommandOf<'contact'>, changes: ContactChanges, { deps }: RunContext): Promise<CommandAnswer> {
  const subject = describeContact(c.contact);
  const calls = planContactUpdate(changes);
  let contact: Contact | undefined;
  let done = 0;
  try {
    const topicIds = await topicIdsFor(c.contact, deps);
    for (const call of calls) {
      contact = await deps.engage.contacts.update(c.contact, call.updates, {
        ...(call.options && { options: call.options }),
        ...(topicIds && { topicIds }),
      });
      done++;
    }
  } catch (error) {
    const failure = describeFailure(error, subject);
    if (done === 0 || !contact) return { ok: false, text: `${failure} Nothing was changed.` };
    return {
      ok: false,
      text: `${failure} Only part of the change was made; the contact now shows: ${formatChangedFields(changedFields(changes, contact))}.`,
    };
  }
  if (!contact) return { ok: false, text: 'Nothing to change.' };
  const fields = changedFields(changes, contact);
  return {
    ok: true,
    text: `Updated ${subject === `contact ${contact.id}` ? subject : `contact ${contact.id} (${subject})`}: ${formatChangedFields(fields)}.`,
    changed: fields,
  };
}

export const contactCommand: CommandSpec<'contact'> = {
  name: 'contact',
  usage: ['contact <contact>', 'contact <contact> set key=value ...'],
  summary: 'shows a contact, or changes its company, comments, country, tags or custom attributes',
  details: [
    `<contact> is ${CONTACT_REF_HELP}.`,
    `Fields: ${CONTACT_FIELDS_HELP}.`,
    'Quote values with spaces (company="Acme NV"). Social profiles cannot be changed.',
  ],
  examples: [
    'contact whatsapp/32470000001',
    'contact whatsapp/32470000001 set company="Acme NV" country=Belgium tags=+vip,-old',
    'contact 7001 set attr.plan=gold attr.trial=',
  ],
  parse(args) {
    const [ref, verb, ...rest] = args;
    if (ref === undefined) return { ok: false, error: 'say which contact' };
    const contact = parseContactRef(ref);
    if (!contact.ok) return contact;
    if (verb === undefined) return { ok: true, command: { name: 'contact', contact: contact.value } };
    if (verb.toLowerCase() !== 'set') {
      return { ok: false, error: `"${verb}" is not understood here: to change fields write "set" first` };
    }
    const changes = parseContactChanges(rest);
    if (!changes.ok) return changes;
    return { ok: true, command: { name: 'contact', contact: contact.value, changes: changes.changes } };
  },
  subject: (c) => describeContact(c.contact),
  run: (c, ctx) => (c.changes ? setContact(c, c.changes, ctx) : showContact(c, ctx)),
};
