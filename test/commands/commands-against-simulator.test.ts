import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/commands/run-command.js';
import type { Actor, BridgeControl, CommandDeps, CommandEngageClient, Owner } from '../../src/commands/ports.js';
import { createEngageClient, type EngageClient } from '../../src/engage/create-engage-client.js';
import { createSimulator, DEFAULT_ACCOUNT_ID, DEFAULT_TOKEN, type RunningSimulator } from '../../src/simulator/index.js';

const ANN = '32470000001';
// Monday 2026-11-23 10:00 UTC = 11:00 in Brussels: the seeded "Support desk" is open.
const MONDAY = new Date('2026-11-23T10:00:00Z');
const actor: Actor = { id: 'UMANAGER', transport: 'slack' };

let running: RunningSimulator;
let client: EngageClient;
let audits: unknown[];

async function control(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${running.url}/_sim/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBeLessThan(300);
  return (await res.json()) as Record<string, unknown>;
}

/** A bridge stand-in that changes owners the way the bridge does: through the client's handover calls. */
function bridgeOver(engage: EngageClient): BridgeControl {
  const owners = new Map<string, Owner>();
  const refOf = (key: string) => {
    const [service = '', serviceId = ''] = key.split('/');
    return { service, serviceId };
  };
  return {
    getOwner: async (key) => (owners.has(key) ? { owner: owners.get(key) as Owner } : undefined),
    setOwner: async (key, owner) => {
      const from = owners.get(key);
      if (owner === 'agents') await engage.handover.toAgents(refOf(key));
      else await engage.handover.toApplication(refOf(key));
      owners.set(key, owner);
      return from === undefined ? { to: owner } : { from, to: owner };
    },
    pauseBot: async () => ({ changed: true }),
    resumeBot: async () => ({ changed: true }),
    openEscalations: async () => [],
    surveyAnswers: async () => [],
    health: async () => ({ ingestionLagMs: 0, conversationsByOwner: {}, apiBudgetRemaining: null, botPausedForAll: false }),
    watchedTopicIds: async () => ['2001'],
    releaseToAgents: async () => [],
    forgetContact: async () => ({ known: false, removed: {}, pseudonym: 'whatsapp/c-0000000000' }),
  };
}

function deps(engage: EngageClient = client): CommandDeps {
  // The real client is the port, as it is.
  const port: CommandEngageClient = engage;
  return {
    engage: port,
    bridge: bridgeOver(engage),
    audit: { audit: async (e) => void audits.push(e) },
    managerIds: ['UMANAGER'],
    now: () => MONDAY,
  };
}

const run = (text: string, d: CommandDeps = deps()) => runCommand(text, { actor, deps: d });

beforeAll(async () => {
  running = await createSimulator().listen({ host: '127.0.0.1', port: 0 });
  client = createEngageClient({
    baseUrl: running.url,
    accountId: DEFAULT_ACCOUNT_ID,
    accessToken: DEFAULT_TOKEN,
    sleep: async () => {},
    retry: { maxAttempts: 1 },
  });
});

afterAll(async () => {
  await client?.close();
  await running?.close();
});

beforeEach(async () => {
  audits = [];
  await control('reset', {});
  await control('clock', { now: MONDAY.getTime() / 1000 });
});

describe('commands against the simulator', () => {
  it('tags a mention and echoes the tags the service now holds', async () => {
    const mention = await control('inbound', { channel: 'whatsapp', author: { id: ANN, name: 'Ann' }, text: 'Hi' });
    const ref = `${String(mention['topic_id'])}/${String(mention['id'])}`;
    await run(`tag ${ref} +spam`);
    const answer = await run(`tag ${String(mention['permalink'])} +vip refund -spam`);
    expect(answer).toMatchObject({ ok: true, changed: { tags: ['vip', 'refund'] } });
    expect(answer.text).toBe(`Mention ${ref}: added vip, refund; removed spam. Tags now: vip, refund.`);
    expect((await client.mentions.get({ topicId: String(mention['topic_id']), id: String(mention['id']) })).tags).toEqual([
      'vip',
      'refund',
    ]);
  });

  it('says Engage does not know a mention that does not exist', async () => {
    const answer = await run('tag 2001/999999 +vip');
    expect(answer).toMatchObject({ ok: false });
    expect(answer.text).toMatch(/^Engage does not know mention 2001\/999999/);
  });

  it('shows a WhatsApp contact, which needs the watched topics', async () => {
    await control('inbound', { channel: 'whatsapp', author: { id: ANN, name: 'Ann' }, text: 'Hi' });
    const answer = await run(`contact whatsapp/${ANN}`);
    expect(answer.ok).toBe(true);
    expect(answer.text).toMatch(new RegExp(`^Contact \\d+ — Ann \\(whatsapp/${ANN}\\)`));
    expect(answer.text).toContain(`telephone: ${ANN}`);
  });

  it('sets fields, adds and removes tags and attributes, and reads the contact back by its permalink', async () => {
    await control('inbound', { channel: 'whatsapp', author: { id: ANN, name: 'Ann' }, text: 'Hi' });
    await run(`contact whatsapp/${ANN} set tags=old,keep attr.trial=yes`);
    const answer = await run(
      `contact whatsapp/${ANN} set company="Acme NV" country=Belgium tags=+vip,-old attr.plan=gold attr.trial= comments='Calls back'`,
    );
    expect(answer.ok).toBe(true);
    expect(answer.changed).toEqual({
      company: 'Acme NV',
      comments: 'Calls back',
      country: 'Belgium (BE)',
      tags: 'keep, vip',
      'attr.plan': 'gold',
      'attr.trial': '(removed)',
    });
    const contact = await client.contacts.get({ service: 'whatsapp', serviceId: ANN }, { topicIds: ['2001'] });
    expect(contact).toMatchObject({ company: 'Acme NV', tags: ['keep', 'vip'], customattributes: { plan: 'gold' } });
    const shown = await run(`contact ${String(contact.permalink)}`);
    expect(shown.text).toContain('company: Acme NV · country: Belgium (BE)');
  });

  it('shows the seeded schedule open in Brussels time with its users', async () => {
    const answer = await run('hours "Support desk"');
    expect(answer.ok).toBe(true);
    expect(answer.text).toMatch(/^Support desk \(Europe\/Brussels, id 301\): open now \(11:00 there\) until today at 17:00/);
    expect(answer.text).toContain('hours: Monday–Friday 09:00–17:00');
    expect(answer.text).toMatch(/users: \d+ available, \d+ busy, \d+ unavailable/);
  });

  it('shows and changes who owns a contact', async () => {
    await control('inbound', { channel: 'whatsapp', author: { id: ANN, name: 'Ann' }, text: 'Hi' });
    const d = deps();
    const before = await run(`handover whatsapp/${ANN}`, d);
    expect(before.text).toBe(`whatsapp/${ANN}: the bridge has not seen this contact; Engage: agents, never handed over.`);
    expect((await run(`handover whatsapp/${ANN} bot`, d)).text).toBe(`whatsapp/${ANN} now belongs to bot.`);
    const after = await run(`handover whatsapp/${ANN} status`, d);
    expect(after.text).toMatch(
      new RegExp(`^whatsapp/${ANN}: the bridge: bot; Engage: the bot \\(application\\) since 2026-11-23 10:00 UTC`),
    );
    expect(audits).toHaveLength(3);
  });

  it('turns a revoked token into a sentence the manager can act on', async () => {
    await control('revoke', { user_id: 'u1' });
    const answer = await run('hours');
    expect(answer).toMatchObject({ ok: false });
    expect(answer.text).toMatch(/access token was refused.*authorise the application again/);
  });
});
