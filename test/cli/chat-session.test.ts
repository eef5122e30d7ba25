import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatSession, renderChatMessage, type ChatMessage } from '../../src/cli/chat-session.js';
import { createEngageClient, type EngageClient, type Mention } from '../../src/engage/index.js';
import { startSimulator, waitFor, type TestSimulator } from './cli-helpers.js';

let sim: TestSimulator;
let engage: EngageClient;

beforeAll(async () => {
  sim = await startSimulator();
  engage = createEngageClient({ baseUrl: sim.url, accountId: '1001', accessToken: 'sim-token' });
});
afterAll(async () => {
  await engage.close();
  await sim.close();
});

/** The customer's inbound mentions, newest last, read through the Engage API as the bridge reads them. */
async function inboundOf(authorId: string): Promise<Mention[]> {
  const page = await engage.mentions.list({ topicIds: ['2001'], sort: 'dateadd:asc', limit: 100 });
  return page.data.filter((m) => String(m.author?.id) === authorId && m.author?.managed !== true);
}

/** The bot's reply to the customer's latest mention, with the canned response's quick replies. */
async function botRepliesWithMenu(authorId: string, _channel: string, text: string): Promise<void> {
  const latest = (await inboundOf(authorId)).at(-1);
  if (!latest) throw new Error('no inbound mention to reply to');
  await engage.publisher.add({
    type: 'reply',
    topicId: latest.topic_id ?? 2001,
    mentionId: latest.id,
    status: '',
    message: text,
    cannedResponseId: '501',
    services: (await engage.publisher.services({ type: 'reply', topicId: latest.topic_id ?? 2001, mentionId: latest.id })).services.map(
      (s) => ({ type: s.type, service_id: s.service_id }),
    ),
  });
}

async function receiveSome(session: ChatSession): Promise<ChatMessage[]> {
  let got: ChatMessage[] = [];
  await waitFor('a message for the customer', async () => {
    got = await session.receive();
    return got.length > 0;
  });
  return got;
}

describe('ChatSession against the simulator', () => {
  it('turns what the customer says into an inbound mention', async () => {
    const session = new ChatSession(sim.url, { channel: 'whatsapp', id: '32470000101', name: 'Ann' });
    await session.begin();
    await session.say('Where is my order?');
    const [mention] = await inboundOf('32470000101');
    expect(mention?.message?.content).toBe('Where is my order?');
    expect(mention?.source?.service).toBe('whatsapp');
    expect(mention?.author?.name).toBe('Ann');
  });

  it('receives the bot reply with numbered quick replies, and a number picks that button', async () => {
    const session = new ChatSession(sim.url, { channel: 'whatsapp', id: '32470000102', name: 'Bob' });
    await session.begin();
    await session.say('hi');
    await botRepliesWithMenu('32470000102', 'whatsapp', 'How can I help?');
    const [reply] = await receiveSome(session);
    expect(reply).toMatchObject({ from: 'bot', text: 'How can I help?' });
    expect(reply?.buttons.map((b) => b.title)).toEqual(['Opening hours', 'Order status', 'Talk to an agent']);
    expect(renderChatMessage(reply as ChatMessage)).toBe(
      'bot> How can I help?\n      [1] Opening hours\n      [2] Order status\n      [3] Talk to an agent\n',
    );
    await session.say('2');
    const picked = (await inboundOf('32470000102')).at(-1);
    expect(picked?.clicked_buttons).toEqual([expect.objectContaining({ id: 'b2', title: 'Order status' })]);
  });

  it('receives an agent reply from the service tool as from: agent', async () => {
    const session = new ChatSession(sim.url, { channel: 'web', id: 'visitor-103', name: 'Cy' });
    await session.begin();
    await session.say('I need a person');
    await sim.control('/_sim/agent/reply', { channel: 'web', service_id: 'visitor-103', text: 'Hi Cy, Alice here.' });
    const [reply] = await receiveSome(session);
    expect(reply).toMatchObject({ from: 'agent', text: 'Hi Cy, Alice here.', buttons: [] });
    expect(renderChatMessage(reply as ChatMessage)).toBe('agent> Hi Cy, Alice here.\n');
  });

  it('receives only messages to its own customer, and nothing twice', async () => {
    const mine = new ChatSession(sim.url, { channel: 'viber', id: 'viber-104', name: 'Di' });
    const other = new ChatSession(sim.url, { channel: 'viber', id: 'viber-105', name: 'Ed' });
    await mine.begin();
    await other.begin();
    await mine.say('hello');
    await other.say('hello too');
    await sim.control('/_sim/agent/reply', { channel: 'viber', service_id: 'viber-105', text: 'for Ed' });
    await sim.control('/_sim/agent/reply', { channel: 'viber', service_id: 'viber-104', text: 'for Di' });
    expect((await receiveSome(mine)).map((m) => m.text)).toEqual(['for Di']);
    expect(await mine.receive()).toEqual([]);
    expect((await receiveSome(other)).map((m) => m.text)).toEqual(['for Ed']);
  });

  it('sends a number as text on SMS, where options are numbered in the text itself', async () => {
    const session = new ChatSession(sim.url, { channel: 'twilio', id: '+32470000106', name: 'Flo' });
    await session.begin();
    await session.say('hi');
    await botRepliesWithMenu('+32470000106', 'twilio', 'Pick one');
    await receiveSome(session);
    await session.say('2');
    const latest = (await inboundOf('+32470000106')).at(-1);
    expect(latest?.message?.content).toBe('2');
    expect(latest?.clicked_buttons ?? []).toEqual([]);
  });

  it('says what the simulator refused', async () => {
    const session = new ChatSession(sim.url, { channel: 'whatsapp', id: '32470000107', name: 'Gus' });
    await expect(session.agentReply('nobody wrote yet')).rejects.toThrow(/the simulator answered 404 to POST \/_sim\/agent\/reply/);
  });
});
