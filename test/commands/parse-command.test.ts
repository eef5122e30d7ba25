import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseCommand } from '../../src/commands/parse-command.js';
import { runCommand } from '../../src/commands/run-command.js';
import { fakeDeps, manager } from './fake-deps.js';

const good: Array<[string, unknown]> = [
  ['', { name: 'help' }],
  ['help', { name: 'help' }],
  ['HELP Contact', { name: 'help', topic: 'contact' }],
  [
    'tag 2001/9001 +vip -spam refund',
    { name: 'tag', mention: { topicId: '2001', mentionId: '9001' }, add: ['vip', 'refund'], remove: ['spam'] },
  ],
  [
    'tag https://app.engagor.com/messages/1001/permalink/2001/9001/ +a',
    { name: 'tag', mention: { topicId: '2001', mentionId: '9001' }, add: ['a'], remove: [] },
  ],
  [
    'tag <https://app.engagor.com/messages/1001/permalink/2001/9001/> -a',
    { name: 'tag', mention: { topicId: '2001', mentionId: '9001' }, add: [], remove: ['a'] },
  ],
  [
    'tag 2001/9001 "+big deal" +vip +vip',
    { name: 'tag', mention: { topicId: '2001', mentionId: '9001' }, add: ['big deal', 'vip'], remove: [] },
  ],
  ['contact 7001', { name: 'contact', contact: { id: '7001' } }],
  ['contact whatsapp/32470000001', { name: 'contact', contact: { service: 'whatsapp', serviceId: '32470000001' } }],
  ['contact https://app.engagor.com/1001/inbox/contact/7001/', { name: 'contact', contact: { id: '7001' } }],
  ['contact https://app.engagor.com/1001/inbox/contact/web/v-1', { name: 'contact', contact: { service: 'web', serviceId: 'v-1' } }],
  [
    'contact whatsapp/32470000001 set company="Acme NV" country=be tags=+vip,-old attr.plan=gold attr.trial= comments=\'Calls back\'',
    {
      name: 'contact',
      contact: { service: 'whatsapp', serviceId: '32470000001' },
      changes: {
        company: 'Acme NV',
        comments: 'Calls back',
        country: { code: 'BE', name: 'Belgium' },
        tags: { kind: 'edit', add: ['vip'], remove: ['old'] },
        setAttributes: { plan: 'gold' },
        removeAttributes: ['trial'],
      },
    },
  ],
  [
    'contact 7001 set tags=a,b country="Ivory Coast"',
    {
      name: 'contact',
      contact: { id: '7001' },
      changes: {
        tags: { kind: 'replace', tags: ['a', 'b'] },
        country: { code: 'CI', name: "Côte d'Ivoire" },
        setAttributes: {},
        removeAttributes: [],
      },
    },
  ],
  [
    'contact 7001 set tags=',
    { name: 'contact', contact: { id: '7001' }, changes: { tags: { kind: 'replace', tags: [] }, setAttributes: {}, removeAttributes: [] } },
  ],
  [
    'contact 7001 set company=“Acme NV”',
    { name: 'contact', contact: { id: '7001' }, changes: { company: 'Acme NV', setAttributes: {}, removeAttributes: [] } },
  ],
  ['hours', { name: 'hours' }],
  ['hours Support desk', { name: 'hours', schedule: 'Support desk' }],
  ['hours "Support desk"', { name: 'hours', schedule: 'Support desk' }],
  ['handover whatsapp/32470000001', { name: 'handover', contact: { service: 'whatsapp', serviceId: '32470000001' }, action: 'status' }],
  ['handover viber/abc agents', { name: 'handover', contact: { service: 'viber', serviceId: 'abc' }, action: 'agents' }],
  ['handover web/v1 BOT', { name: 'handover', contact: { service: 'web', serviceId: 'v1' }, action: 'bot' }],
  ['bot pause', { name: 'bot', action: 'pause' }],
  ['bot resume twilio/+32470000001', { name: 'bot', action: 'resume', contact: { service: 'twilio', serviceId: '+32470000001' } }],
  ['  escalations  ', { name: 'escalations' }],
  ['status', { name: 'status' }],
];

const bad: Array<[kind: string, text: string, commandName: string | undefined, error: RegExp]> = [
  ['unknown verb', 'frobnicate 1', undefined, /not a command/],
  ['missing mention', 'tag', 'tag', /which mention/],
  ['missing tags', 'tag 2001/9001', 'tag', /which tags/],
  ['bad mention reference', 'tag 2001-9001 +a', 'tag', /not a mention/],
  ['bad permalink', 'tag https://example.com/x/1 +a', 'tag', /not a mention/],
  ['ambiguous tag token', 'tag 2001/9001 +-a', 'tag', /ambiguous/],
  ['empty tag', 'tag 2001/9001 +', 'tag', /no tag/],
  ['tag added and removed', 'tag 2001/9001 +a -a', 'tag', /both added and removed/],
  ['comma in a tag', 'tag 2001/9001 +a,b', 'tag', /comma/],
  ['missing contact', 'contact', 'contact', /which contact/],
  ['bad contact reference', 'contact what/ever/else', 'contact', /not a contact/],
  ['instagram by service', 'contact instagram/123', 'contact', /Instagram/],
  ['extra argument without set', 'contact 7001 company=x', 'contact', /"set"/],
  ['set without fields', 'contact 7001 set', 'contact', /what to set/],
  ['unknown field', 'contact 7001 set gender=x', 'contact', /unknown field "gender"/],
  ['social profiles', 'contact 7001 set socialprofiles=x', 'contact', /cannot be changed/],
  ['not key=value', 'contact 7001 set company', 'contact', /KEY=VALUE/],
  ['field given twice', 'contact 7001 set company=a company=b', 'contact', /twice/],
  ['unknown country', 'contact 7001 set country=Belgum', 'contact', /unknown country "Belgum"/],
  ['unknown country code', 'contact 7001 set country=QQ', 'contact', /unknown country/],
  ['mixed tag list', 'contact 7001 set tags=a,+b', 'contact', /mixes/],
  ['empty tag in list', 'contact 7001 set tags=a,,b', 'contact', /empty tag/],
  ['bad attribute name', 'contact 7001 set attr.=x', 'contact', /attribute name/],
  ['unbalanced quotes', 'contact 7001 set company="Acme NV', 'contact', /unbalanced double quote/],
  ['unbalanced single quote', "contact 7001 set company='Acme", 'contact', /unbalanced single quote/],
  ['missing handover contact', 'handover', 'handover', /which contact/],
  ['handover by id', 'handover 7001', 'handover', /not a contact on a channel/],
  ['bad handover action', 'handover web/1 robots', 'handover', /not status, bot or agents/],
  ['extra handover argument', 'handover web/1 bot now', 'handover', /unexpected "now"/],
  ['missing bot verb', 'bot', 'bot', /pause or resume/],
  ['bad bot verb', 'bot stop', 'bot', /not pause or resume/],
  ['bad bot contact', 'bot pause 7001', 'bot', /not a contact on a channel/],
  ['extra bot argument', 'bot pause web/1 web/2', 'bot', /unexpected/],
  ['extra escalations argument', 'escalations all', 'escalations', /no arguments/],
  ['extra status argument', 'status now', 'status', /no arguments/],
  ['unknown help topic', 'help frob', 'help', /no command "frob"/],
  ['over-long text', `contact 7001 set comments="${'x'.repeat(2000)}"`, 'contact', /limit is 2000/],
];

describe('parseCommand', () => {
  it.each(good)('understands %j', (text, expected) => {
    const parsed = parseCommand(text);
    expect(parsed).toEqual({ ok: true, command: expected });
  });

  it.each(bad)('refuses %s with the usage of what was meant', (_kind, text, commandName, error) => {
    const parsed = parseCommand(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error).toMatch(error);
    expect(parsed.commandName).toBe(commandName);
    expect(parsed.usage).toContain(commandName === undefined ? 'Commands:' : `Usage: ${commandName}`);
  });

  it.each(bad)('makes no port call for %s, from the manager either', async (_kind, text) => {
    const deps = fakeDeps();
    const answer = await runCommand(text, { actor: manager, deps });
    expect(answer.ok).toBe(false);
    expect(answer.usage).toBeDefined();
    expect(deps.calls).toEqual([]);
  });

  it('never throws on random text and always gives a command or a usage', () => {
    const words = fc.constantFrom('help', 'tag', 'contact', 'hours', 'handover', 'bot', 'escalations', 'status', 'set', 'pause');
    const pieces = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      words,
      fc.constantFrom('"', "'", '“', '=', '+', '-', '/', 'attr.', 'tags=+a,-b', '2001/9001', 'whatsapp/1', '<', '>'),
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }), fc.constantFrom(' ', '', '\t'), (parts, sep) => {
        // Plain booleans, not expect(): a property runs a thousand times.
        const parsed = parseCommand(parts.join(sep));
        return parsed.ok ? typeof parsed.command.name === 'string' : parsed.error.length > 0 && parsed.usage.length > 0;
      }),
      { numRuns: 2000 },
    );
  });

  it('answers random malformed text with a usage and no port call', async () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc
        .tuple(fc.constantFrom('tag', 'contact', 'handover', 'bot', 'status'), fc.string({ maxLength: 40 }))
        .map(([verb, rest]) => `${verb} ${rest}`),
    );
    await fc.assert(
      fc.asyncProperty(text, async (t) => {
        const deps = fakeDeps();
        const answer = await runCommand(t, { actor: manager, deps });
        if (!parseCommand(t).ok) {
          expect(answer.usage).toBeDefined();
          expect(deps.calls).toEqual([]);
        } else {
          expect(deps.audits).toHaveLength(1);
        }
      }),
      { numRuns: 300 },
    );
  });
});
