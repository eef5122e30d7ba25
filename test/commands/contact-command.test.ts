import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/commands/run-command.js';
import { planContactUpdate } from '../../src/commands/plan-contact-update.js';
import { parseContactChanges } from '../../src/commands/parse-contact-changes.js';
import { InvalidParameterError } from '../../src/engage/errors/index.js';
import type { Contact } from '../../src/engage/schemas/index.js';
import { fakeDeps, manager } from './fake-deps.js';

const ann = {
  id: '7001',
  name: 'Ann',
  socialprofiles: [{ type: 'whatsapp', service_id: '32470000001' }],
  tags: ['vip'],
  customattributes: { plan: 'gold' },
  address: { country: { name: 'Belgium', code: 'BE' } },
  company: 'Acme NV',
  comments: '',
  permalink: 'https://app.engagor.com/1001/inbox/contact/7001/',
} as Contact;

function plan(text: string) {
  const parsed = parseContactChanges(text.split(' '));
  if (!parsed.ok) throw new Error(parsed.error);
  return planContactUpdate(parsed.changes);
}

describe('planContactUpdate', () => {
  it('sends fields, added tags and set attributes in one call', () => {
    expect(plan('company=Acme country=belgium tags=+vip attr.plan=gold')).toEqual([
      {
        updates: { company: 'Acme', address: { country: { code: 'BE' } }, tags: ['vip'], customattributes: { plan: 'gold' } },
        options: { tags_edit_mode: 'add', customattributes_edit_mode: 'update' },
      },
    ]);
  });
  it('replaces the whole tag list for a plain list and clears it for an empty one', () => {
    expect(plan('tags=a,b')).toEqual([{ updates: { tags: ['a', 'b'] }, options: { tags_edit_mode: 'update' } }]);
    expect(plan('tags=')).toEqual([{ updates: { tags: [] }, options: { tags_edit_mode: 'update' } }]);
  });
  it('puts removals in a second call with the delete modes', () => {
    expect(plan('comments=x tags=+a,-b attr.old=')).toEqual([
      { updates: { comments: 'x', tags: ['a'] }, options: { tags_edit_mode: 'add' } },
      {
        updates: { tags: ['b'], customattributes: { old: null } },
        options: { tags_edit_mode: 'delete', customattributes_edit_mode: 'delete' },
      },
    ]);
  });
  it('makes only the removal call when nothing else changes', () => {
    expect(plan('tags=-b')).toEqual([{ updates: { tags: ['b'] }, options: { tags_edit_mode: 'delete' } }]);
  });
});

describe('contact', () => {
  it('shows a contact, passing the watched topics for a chat channel', async () => {
    const deps = fakeDeps({ engage: { contacts: { get: async () => ann } } });
    const answer = await runCommand('contact whatsapp/32470000001', { actor: manager, deps });
    expect(deps.calls.find((c) => c.port === 'contacts.get')?.args).toEqual([
      { service: 'whatsapp', serviceId: '32470000001' },
      { topicIds: ['2001'] },
    ]);
    expect(answer.ok).toBe(true);
    expect(answer.text).toContain('Contact 7001 — Ann (whatsapp/32470000001)');
    expect(answer.text).toContain('company: Acme NV · country: Belgium (BE)');
    expect(answer.text).toContain('attributes: plan=gold');
  });

  it('sends no topics for a channel that does not need them', async () => {
    const deps = fakeDeps();
    await runCommand('contact twitter/123', { actor: manager, deps });
    expect(deps.calls.find((c) => c.port === 'contacts.get')?.args).toEqual([{ service: 'twitter', serviceId: '123' }, {}]);
    expect(deps.calls.some((c) => c.port === 'bridge.watchedTopicIds')).toBe(false);
  });

  it('updates and says exactly what the contact now shows', async () => {
    const deps = fakeDeps({
      engage: { contacts: { update: async () => ({ ...ann, company: 'Acme NV', tags: ['vip', 'gold'], customattributes: {} }) } },
    });
    const answer = await runCommand('contact whatsapp/32470000001 set company="Acme NV" tags=+gold attr.plan=', {
      actor: manager,
      deps,
    });
    const updates = deps.calls.filter((c) => c.port === 'contacts.update').map((c) => c.args.slice(1));
    expect(updates).toEqual([
      [
        { company: 'Acme NV', tags: ['gold'] },
        { options: { tags_edit_mode: 'add' }, topicIds: ['2001'] },
      ],
      [{ customattributes: { plan: null } }, { options: { customattributes_edit_mode: 'delete' }, topicIds: ['2001'] }],
    ]);
    expect(answer.ok).toBe(true);
    expect(answer.text).toBe('Updated contact 7001 (whatsapp/32470000001): company = Acme NV; tags = vip, gold; attr.plan = (removed).');
    expect(answer.changed).toEqual({ company: 'Acme NV', tags: 'vip, gold', 'attr.plan': '(removed)' });
  });

  it('reports a refused update as a sentence and that nothing changed', async () => {
    const deps = fakeDeps({
      engage: {
        contacts: {
          update: async () =>
            Promise.reject(
              new InvalidParameterError({ method: 'POST', path: '/x', status: 400, description: "Country 'X' is not recognised" }),
            ),
        },
      },
    });
    const answer = await runCommand('contact 7001 set country=BE', { actor: manager, deps });
    expect(answer.ok).toBe(false);
    expect(answer.text).toBe("Engage refused the request for contact 7001: Country 'X' is not recognised. Nothing was changed.");
  });
});

describe('contact set when a call fails', () => {
  it('says which part was made when the second call fails', async () => {
    let n = 0;
    const deps = fakeDeps({
      engage: {
        contacts: {
          update: async () => {
            if (n++ > 0) throw new InvalidParameterError({ method: 'POST', path: '/x', status: 400, description: 'nope' });
            return { ...ann, company: 'New' };
          },
        },
      },
    });
    const answer = await runCommand('contact 7001 set company=New tags=-vip', { actor: manager, deps });
    expect(answer.ok).toBe(false);
    expect(answer.text).toBe(
      'Engage refused the request for contact 7001: nope. Only part of the change was made; the contact now shows: company = New; tags = vip.',
    );
  });

  it('passes on the client refusing a call before sending it', async () => {
    const deps = fakeDeps({
      engage: {
        contacts: {
          get: async () =>
            Promise.reject(new InvalidParameterError({ method: 'GET', path: '/x', description: 'x' }, 'Not sent to Engage: x.')),
        },
      },
    });
    const answer = await runCommand('contact 7001', { actor: manager, deps });
    expect(answer.text).toBe('Not sent to Engage: x.');
  });
});
