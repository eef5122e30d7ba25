import type { CommandSpec } from './command-types.js';
import { describeFailure } from './describe-failure.js';
import { contactKeyText } from './ports.js';
import { SERVICE_REF_HELP, parseServiceRef } from './references.js';

/** What the audit log says of a `forget` command it could not tie to a pseudonym: never the contact's id. */
export const FORGET_SUBJECT = 'a contact (its id is not written down)';

/** Whether a command's text is a `forget`: its text (the contact's id) must then stay out of the audit log. */
export function isForgetText(text: string): boolean {
  return /^\s*forget(?:\s|$)/i.test(text);
}

/** The counts in the order a manager reads them, with their words. */
const KINDS: ReadonlyArray<[string, string]> = [
  ['conversations', 'conversation (with its dialog state)'],
  ['archivedCopies', 'archived copies'],
  ['transcriptLines', 'transcript lines'],
  ['inbox', 'messages waiting'],
  ['pendingEffects', 'replies/actions not yet sent'],
  ['finishedEffects', 'records of actions already sent'],
  ['escalations', 'escalations'],
  ['surveyAnswers', 'survey answers'],
  ['auditEntries', 'audit entries'],
  ['deadListed', 'entries in the list of given-up actions'],
];

function counts(removed: Readonly<Record<string, number>>): string {
  return KINDS.map(([kind, words]) => `${words}: ${removed[kind] ?? 0}`).join(', ');
}

export const forgetCommand: CommandSpec<'forget'> = {
  name: 'forget',
  usage: ['forget <service>/<service_id> [--dry-run]'],
  summary: 'removes everything the bridge keeps about one customer (their right to be forgotten); --dry-run only counts',
  details: [
    `<service>/<service_id> is ${SERVICE_REF_HELP}.`,
    'Removes the conversation (hot and archived), transcript, dialog state, replies not yet sent, escalation records, survey answers and the audit entries naming the contact. The audit keeps one entry: who forgot a contact and when, the contact only as its keyed hash.',
    "It does not touch the service's own data (mentions, contact profile): delete those in the Engage account itself.",
  ],
  examples: ['forget whatsapp/32470000001 --dry-run', 'forget whatsapp/32470000001'],
  parse(args) {
    let ref: string | undefined;
    let dryRun = false;
    for (const arg of args) {
      if (arg === '--dry-run') dryRun = true;
      else if (ref === undefined) ref = arg;
      // Never echo the argument: it may be a customer's id, and the usage error is audited.
      else return { ok: false, error: 'forget takes one contact and --dry-run' };
    }
    if (ref === undefined) return { ok: false, error: 'say which contact' };
    const contact = parseServiceRef(ref);
    if (!contact.ok) return { ok: false, error: `that is not a contact on a channel: use ${SERVICE_REF_HELP}` };
    return { ok: true, command: { name: 'forget', contact: contact.value, dryRun } };
  },
  subject: (c) => `${FORGET_SUBJECT}${c.dryRun ? ' (dry run)' : ''}`,
  async run(c, { deps, actor }) {
    let report: Awaited<ReturnType<typeof deps.bridge.forgetContact>>;
    try {
      report = await deps.bridge.forgetContact(contactKeyText(c.contact), { dryRun: c.dryRun }, actor);
    } catch (error) {
      return { ok: false, text: describeFailure(error, 'forgetting the contact') };
    }
    const auditSubject = `${report.pseudonym}${c.dryRun ? ' (dry run)' : ''}`;
    // The answer names the contact by its pseudonym only: a failed command's answer goes to the audit log.
    if (!report.known) {
      return { ok: true, text: `The bridge keeps nothing about ${report.pseudonym}: nothing was changed.`, auditSubject };
    }
    const text = c.dryRun
      ? `Would remove about ${report.pseudonym} (dry run, nothing changed): ${counts(report.removed)}.`
      : `Forgot ${report.pseudonym}: removed ${counts(report.removed)}. The service's own data (mentions, contact) is deleted in the Engage account.`;
    return { ok: true, text, auditSubject, changed: { ...report.removed } };
  },
};
