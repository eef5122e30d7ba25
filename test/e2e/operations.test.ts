import { describe, it, expect, afterEach } from 'vitest';
import { FakeSlack } from '../slack/slack-test-kit.js';
import { startHarness, botMessagesTo, waitFor, type Harness } from './harness.js';

let h: Harness | undefined;
let slack: FakeSlack | undefined;
afterEach(async () => {
  await h?.stop();
  await slack?.stop();
  h = undefined;
  slack = undefined;
});

describe('running the bridge', () => {
  it('posts an escalation notice to Slack with the customer, reason and buttons', async () => {
    slack = new FakeSlack();
    await slack.start();
    h = await startHarness({
      env: {
        SLACK_BOT_TOKEN: 'xoxb-test-token',
        SLACK_SIGNING_SECRET: 'signing-secret-1',
        SLACK_BOT_ID: 'B1',
        SLACK_BOT_USER_ID: 'U1',
        SLACK_PORT: '0',
        SLACK_API_URL: slack.apiUrl,
        SLACK_ESCALATION_CHANNEL: 'CESC',
        SLACK_MANAGER_IDS: 'UMANAGER1',
      },
    });
    await h.say('32470000030', 'hello', 'whatsapp', 'Zoe');
    await h.settle();
    await h.say('32470000030', 'I need a real person');
    await h.settle();
    const post = await waitFor('the notice', () => slack!.callsTo('/api/chat.postMessage')[0], 10_000);
    expect(post.body.channel).toBe('CESC');
    const blocks = JSON.stringify(post.body.blocks);
    expect(blocks).toContain('Zoe');
    expect(blocks).toContain('whatsapp');
    expect(blocks).toContain('Return to bot');
    expect(blocks).toContain('Mark resolved');
  });

  it('waits while the token is revoked, says why on /readyz, and resumes when access is back', async () => {
    h = await startHarness();
    await h.say('32470000031', 'hello');
    await h.settle();
    expect((await fetch(`${h.running.http.url}/readyz`)).status).toBe(200);
    await h.control('/_sim/revoke', { user_id: 'u1' });
    await h.say('32470000031', 'are you there?');
    const revoked: string[] = [];
    h.running.bridge.setNotifier({ tokenRevoked: () => revoked.push('revoked') });
    await h.running.bridge.poller.pollOnce();
    expect(revoked).toEqual(['revoked']);
    const ready = await fetch(`${h.running.http.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { reason: string }).reason).toMatch(/re-authorise/);
    await h.control('/_sim/tokens', {
      token: 'sim-token',
      user_id: 'u1',
      scopes: ['accounts_read', 'accounts_write', 'accounts_handover'],
    });
    await h.running.bridge.poller.pollOnce();
    expect((await fetch(`${h.running.http.url}/readyz`)).status).toBe(200);
    await h.running.bridge.idle();
    await waitFor('the reply after access is back', () => botMessagesTo(h!, '32470000031').length === 2);
  });

  it('announces an escalation nobody picked up, once', async () => {
    const stuck: string[] = [];
    h = await startHarness({ env: { BRIDGE_STUCK_ESCALATION_MINUTES: '15' } });
    h.running.bridge.setNotifier({ escalationStuck: (n: { contactKey: string }) => stuck.push(n.contactKey) });
    await h.say('32470000032', 'hello');
    await h.settle();
    await h.say('32470000032', 'agent');
    await h.settle();
    h.advance(16 * 60_000);
    await h.running.bridge.reconciler.run();
    await h.running.bridge.reconciler.run();
    expect(stuck).toEqual(['whatsapp/32470000032']);
  });

  it('remembers across a restart that it announced a stuck escalation (#11.6)', async () => {
    const stuck: string[] = [];
    const env = { BRIDGE_STUCK_ESCALATION_MINUTES: '15' };
    h = await startHarness({ env });
    h.running.bridge.setNotifier({ escalationStuck: (n: { contactKey: string }) => stuck.push(n.contactKey) });
    await h.say('32470000036', 'hello');
    await h.settle();
    await h.say('32470000036', 'agent');
    await h.settle();
    h.advance(16 * 60_000);
    await h.running.bridge.reconciler.run();
    expect(stuck).toEqual(['whatsapp/32470000036']);
    const { dataDir } = h;
    const nowMs = h.now();
    await h.stop();
    h = undefined;
    h = await startHarness({ env, dataDir, nowMs });
    h.running.bridge.setNotifier({ escalationStuck: (n: { contactKey: string }) => stuck.push(n.contactKey) });
    h.advance(60_000);
    await h.running.bridge.reconciler.run();
    h.advance(60_000);
    await h.running.bridge.reconciler.run();
    expect(stuck).toEqual(['whatsapp/32470000036']);
    expect((await h.running.store.listEscalations({ status: 'open' })).map((e) => e.contactKey)).toEqual(['whatsapp:32470000036']);
  });

  it('lets a manager pause and resume the bot for one contact', async () => {
    h = await startHarness();
    await h.say('32470000033', 'hello');
    await h.settle();
    const actor = { id: 'UMANAGER1', transport: 'cli' as const };
    expect((await h.running.bridge.control.pauseBot('whatsapp/32470000033', actor)).changed).toBe(true);
    await h.say('32470000033', 'hello again');
    await h.settle();
    expect(botMessagesTo(h, '32470000033')).toHaveLength(1);
    await h.running.bridge.control.resumeBot('whatsapp/32470000033', actor);
    await h.say('32470000033', 'opening hours?');
    await h.settle();
    expect(botMessagesTo(h, '32470000033')).toHaveLength(2);
    const audit = await h.running.store.listAudit();
    expect(audit.some((a) => a.actor === 'cli:UMANAGER1' && a.action.includes('paused'))).toBe(true);
  });
});

describe('the bot paused for everyone', () => {
  it('claims no contact, sends no bot message and returns nothing, while a decided escalation still goes to people (#11.3)', async () => {
    h = await startHarness();
    const actor = { id: 'UMANAGER1', transport: 'cli' as const };
    // A contact the bot serves, with an escalation decided before the pause (queued out of hours would also do).
    await h.say('32470000061', 'hello');
    await h.settle();
    expect((await h.running.bridge.control.pauseBot('all', actor)).changed).toBe(true);
    const deletes = () => h!.requests().filter((r) => r.method === 'DELETE' && r.path.includes('/inbox/handover/')).length;
    const deletesBefore = deletes();
    const repliesBefore = h.outbound().length;
    // A new customer writes: not claimed, not answered.
    await h.say('32470000062', 'hello');
    await h.settle();
    expect(deletes()).toBe(deletesBefore);
    expect(h.outbound().length).toBe(repliesBefore);
    // People hand a contact back (resolved in the tool): the bot does not take it back while paused.
    await h.control('/_sim/handover', { channel: 'whatsapp', service_id: '32470000061', owner: 'agents' });
    await h.running.bridge.control.setOwner('whatsapp/32470000061', 'agents', actor);
    await h.settle();
    const report = await h.running.bridge.reconciler.run();
    await h.settle();
    expect(deletes()).toBe(deletesBefore);
    expect(h.outbound().length).toBe(repliesBefore);
    expect(report).toBeDefined();
    // Resumed: the waiting customer is answered.
    await h.running.bridge.control.resumeBot('all', actor);
    await h.say('32470000062', 'anyone?');
    await h.settle();
    await waitFor('an answer after the resume', () => botMessagesTo(h!, '32470000062').length > 0);
  });
});

describe('the fail-safe for when the bot is gone (#14)', () => {
  it('release lists, then hands to people, the contacts the bot holds with recent customer activity, with a note', async () => {
    h = await startHarness();
    const actor = { id: 'UMANAGER1', transport: 'cli' as const };
    await h.say('32470000071', 'hello');
    await h.settle();
    h.advance(2 * 3_600_000); // this customer wrote two hours ago
    await h.say('32470000072', 'hello');
    await h.settle();
    const posts = () => h!.requests().filter((r) => r.method === 'POST' && r.path.includes('/inbox/handover/'));
    const dry = await h.running.bridge.control.releaseToAgents({ sinceMs: 3_600_000, dryRun: true, why: 'test' }, actor);
    expect(dry.map((c) => c.contactKey)).toEqual(['whatsapp/32470000072']);
    expect(posts()).toEqual([]);
    const done = await h.running.bridge.control.releaseToAgents(
      { sinceMs: 3_600_000, dryRun: false, why: 'the bridge is going away' },
      actor,
    );
    expect(done).toEqual([expect.objectContaining({ contactKey: 'whatsapp/32470000072', released: true })]);
    expect(posts().map((r) => r.path)).toEqual([expect.stringContaining('/inbox/handover/whatsapp/32470000072')]);
    expect((await h.running.store.getConversation('whatsapp:32470000071'))?.owner).toBe('bot');
    expect((await h.running.store.getConversation('whatsapp:32470000072'))?.owner).toBe('agents');
    const notes = h.requests().filter((r) => r.method === 'POST' && r.path.includes('/inbox/mention/'));
    expect(notes.length).toBeGreaterThan(0);
    // Nobody has answered the released customer two hours later: they stay with people, not taken back as idle (#11.6).
    h.advance(2 * 60 * 60_000);
    expect((await h.running.bridge.reconciler.run()).idle).toBe(0);
    expect((await h.running.store.getConversation('whatsapp:32470000072'))?.owner).toBe('agents');
  });

  it('with BRIDGE_ON_STOP=agents, a graceful stop hands the recent contacts to people', async () => {
    h = await startHarness({ env: { BRIDGE_ON_STOP: 'agents' } });
    await h.say('32470000073', 'hello');
    await h.settle();
    const sim = h.sim;
    await h.stop();
    expect(sim.requests.after(0).some((r) => r.method === 'POST' && r.path.includes('/inbox/handover/whatsapp/32470000073'))).toBe(true);
    h = undefined;
  });
});

describe('a manager moving a contact', () => {
  it('gives the "back with the assistant" turn after a quick hand-to-agents-then-return (#10.8)', async () => {
    h = await startHarness();
    await h.say('32470000034', 'hello');
    await h.settle();
    const actor = { id: 'UMANAGER1', transport: 'cli' as const };
    expect((await h.running.bridge.control.setOwner('whatsapp/32470000034', 'agents', actor)).to).toBe('agents');
    expect((await h.running.bridge.control.setOwner('whatsapp/32470000034', 'bot', actor)).to).toBe('bot');
    await h.settle();
    await waitFor('the back-with-the-assistant turn', () =>
      botMessagesTo(h!, '32470000034').some((m) => /back with the assistant/i.test(m.message)),
    );
  });
});

describe('a long backlog for one contact', () => {
  it('is worked through to the end across runs, never left waiting (#10.6)', async () => {
    h = await startHarness();
    const id = '32470000035';
    await h.say(id, 'hello');
    await h.settle();
    // Paused, the bot records each message without a decision to send: the backlog itself is what is tested.
    await h.running.bridge.control.pauseBot(`whatsapp/${id}`, { id: 'UMANAGER1', transport: 'cli' });
    // The whole backlog waits at once (as after a long stop), more than one run takes (50 rounds of 20).
    const backlog = 1_001;
    const key = `whatsapp:${id}`;
    const addedAt = Math.floor(h.now() / 1000);
    await Promise.all(
      Array.from({ length: backlog }, (_, i) =>
        h!.running.store.recordInbound({
          id: `backlog-${i}`,
          topicId: '2001',
          key,
          addedAt,
          payload: { kind: 'customer', text: `message ${i}`, clicked: [] },
        }),
      ),
    );
    h.running.bridge.context.wake(key);
    await h.running.bridge.idle();
    await waitFor('every message of the backlog processed', async () => (await h!.running.store.pendingInbound(key)).length === 0, 30_000);
    const conv = await h.running.store.getConversation(key);
    expect(conv?.transcript.some((l) => l.text.startsWith('message '))).toBe(true);
  }, 120_000);
});

describe('the reconciler', () => {
  it('looks up a bounded number of agent-held contacts per run, each at most every 30 s', async () => {
    // Frozen: the three runs must fall within 30 s of each other, which a busy machine's real time does not promise.
    h = await startHarness({ frozenClock: true });
    const now = h.now();
    for (let i = 0; i < 30; i++) {
      await h.running.store.saveConversation({
        key: `whatsapp:3247700${String(i).padStart(4, '0')}`,
        channel: 'whatsapp',
        serviceId: `3247700${String(i).padStart(4, '0')}`,
        owner: 'agents',
        ownerChangedAt: now,
        ownerConfirmedAt: now,
        transcript: [],
        lastInboundAt: now,
        lastMentionId: String(500_000 + i),
        lastMentionTopicId: '2001',
        updatedAt: now,
      });
    }
    const lookups = () => h!.requests().filter((r) => r.method === 'GET' && r.path.includes('/inbox/mention/')).length;
    await h.running.bridge.reconciler.run();
    expect(lookups()).toBe(20);
    await h.running.bridge.reconciler.run();
    expect(lookups()).toBe(30);
    await h.running.bridge.reconciler.run();
    expect(lookups()).toBe(30);
  });
});
