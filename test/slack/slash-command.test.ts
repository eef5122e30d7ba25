import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { computeSlackSignature } from '../../src/slack/slack-signature.js';
import {
  FakeSlack,
  MANAGER,
  SIGNING_SECRET,
  STRANGER,
  eventually,
  postSigned,
  slashCommand,
  startHarness,
  type Harness,
} from './slack-test-kit.js';

describe('the /engage slash command over HTTP', () => {
  let fake: FakeSlack;
  let h: Harness;

  beforeEach(async () => {
    fake = new FakeSlack();
    await fake.start();
    h = await startHarness(fake);
  });
  afterEach(async () => {
    await h.app.stop();
    await fake.stop();
  });

  it('answers a validly signed request with 200 and an ephemeral message', async () => {
    const res = await postSigned(h.port, slashCommand(fake, MANAGER, 'status'));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ response_type: 'ephemeral' });
  });

  it('refuses a request signed with another secret with 401 and runs nothing', async () => {
    const res = await postSigned(h.port, slashCommand(fake, MANAGER, 'status'), { secret: 'not-the-secret' });
    expect(res.status).toBe(401);
    expect(h.commands.runs).toHaveLength(0);
  });

  it('refuses a correctly signed but stale request (over five minutes old) with 401', async () => {
    const res = await postSigned(h.port, slashCommand(fake, MANAGER, 'status'), { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
    expect(res.status).toBe(401);
    expect(h.commands.runs).toHaveLength(0);
  });

  it('refuses a correctly signed request stamped more than five minutes in the future with 401', async () => {
    const res = await postSigned(h.port, slashCommand(fake, MANAGER, 'bot pause'), { timestamp: Math.floor(Date.now() / 1000) + 6 * 60 });
    expect(res.status).toBe(401);
    expect(h.commands.runs).toHaveLength(0);
    expect(h.logger.lines.some((l) => l.level === 'warn' && l.data.reason === 'stale')).toBe(true);
  });

  it('refuses a signed request that a browser sent (Origin header) and runs nothing', async () => {
    const body = new URLSearchParams(slashCommand(fake, MANAGER, 'status')).toString();
    const timestamp = String(Math.floor(Date.now() / 1000));
    const res = await fetch(`http://127.0.0.1:${h.port}/slack/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': computeSlackSignature(SIGNING_SECRET, timestamp, body),
      },
      body,
    });
    expect(res.status).toBe(403);
    expect(h.commands.runs).toHaveLength(0);
  });

  it('refuses a request whose signature header is garbage with 401', async () => {
    const res = await postSigned(h.port, slashCommand(fake, MANAGER, 'status'), { signature: 'v1=zzz' });
    expect(res.status).toBe(401);
  });

  it('runs a manager command after the ack and answers it ephemerally through response_url', async () => {
    const res = await postSigned(h.port, slashCommand(fake, MANAGER, 'status', 'r1'));
    expect(JSON.parse(res.text).text).toContain('Working on `status`');
    await eventually(() => fake.callsTo('/respond/r1').length === 1, 'the answer through response_url');
    expect(fake.callsTo('/respond/r1')[0]?.body).toMatchObject({
      response_type: 'ephemeral',
      text: 'All good: 3 conversations with the bot.',
    });
    expect(h.commands.runs).toEqual([{ text: 'status', actor: { id: MANAGER, name: 'someone', transport: 'slack' } }]);
  });

  it('answers a usage error in the ack itself, audits it and runs nothing', async () => {
    const res = await postSigned(h.port, slashCommand(fake, MANAGER, 'frobnicate now'));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ response_type: 'ephemeral', text: 'Unknown command "frobnicate". Usage: /engage help' });
    expect(h.commands.runs).toHaveLength(0);
    expect(h.audit).toEqual([
      {
        at: 1_700_000_000_000,
        actor: `slack:${MANAGER}`,
        action: 'malformed',
        subject: 'frobnicate now',
        result: 'failed',
        reason: 'usage error: Unknown command "frobnicate". Usage: /engage help',
      },
    ]);
  });

  it('refuses a non-manager ephemerally, audits the refusal and runs nothing', async () => {
    const res = await postSigned(h.port, slashCommand(fake, STRANGER, 'status'));
    expect(res.status).toBe(200);
    const answer = JSON.parse(res.text) as { response_type: string; text: string };
    expect(answer.response_type).toBe('ephemeral');
    expect(answer.text).toContain('only bridge managers may run `status`');
    expect(answer.text).toContain(STRANGER);
    expect(h.commands.runs).toHaveLength(0);
    expect(h.audit).toEqual([
      {
        at: 1_700_000_000_000,
        actor: `slack:${STRANGER}`,
        action: 'status',
        subject: 'status',
        result: 'refused',
        reason: 'not a manager',
      },
    ]);
  });

  it('audits a refused forget without the contact it names', async () => {
    const res = await postSigned(h.port, slashCommand(fake, STRANGER, 'forget whatsapp/32471234567'));
    expect(res.status).toBe(200);
    expect(h.commands.runs).toHaveLength(0);
    expect(h.audit).toEqual([
      {
        at: 1_700_000_000_000,
        actor: `slack:${STRANGER}`,
        action: 'forget',
        subject: 'a contact (its id is not written down)',
        result: 'refused',
        reason: 'not a manager',
      },
    ]);
  });

  it('lets anyone run help and answers it in the ack', async () => {
    const res = await postSigned(h.port, slashCommand(fake, STRANGER, 'help'));
    expect(JSON.parse(res.text)).toEqual({ response_type: 'ephemeral', text: 'Commands: help, status' });
    expect(h.commands.runs.map((run) => run.text)).toEqual(['help']);
  });

  it('still acks at once when help is unexpectedly slow, and answers it through response_url', async () => {
    await h.app.stop();
    let release: (() => void) | undefined;
    const slowHelp = {
      parse: () => ({ ok: true as const, name: 'help' }),
      run: () =>
        new Promise<{ ok: boolean; text: string }>((resolve) => {
          release = () => resolve({ ok: true, text: 'late help' });
        }),
    };
    h = await startHarness(fake, { commands: slowHelp, helpAckBudgetMs: 1 });
    const res = await postSigned(h.port, slashCommand(fake, STRANGER, 'help', 'slow'));
    expect(JSON.parse(res.text)).toEqual({ response_type: 'ephemeral', text: 'Working on `help`…' });
    release?.();
    await eventually(() => fake.callsTo('/respond/slow').length === 1, 'the late help');
    expect(fake.callsTo('/respond/slow')[0]?.body).toMatchObject({ response_type: 'ephemeral', text: 'late help' });
  });

  it('refuses everyone when no manager ids are configured', async () => {
    await h.app.stop();
    h = await startHarness(fake, { managerIds: [] });
    const res = await postSigned(h.port, slashCommand(fake, MANAGER, 'status'));
    expect(JSON.parse(res.text).text).toContain('only bridge managers');
    expect(h.commands.runs).toHaveLength(0);
  });

  it('passes on the executor answer for an API failure as the manager-facing sentence', async () => {
    await postSigned(h.port, slashCommand(fake, MANAGER, 'fail', 'r2'));
    await eventually(() => fake.callsTo('/respond/r2').length === 1, 'the failure answer');
    expect(fake.callsTo('/respond/r2')[0]?.body).toMatchObject({
      response_type: 'ephemeral',
      text: 'Engage refused the access token: create a new one.',
    });
  });

  it('turns an executor that throws into a sentence without the raw message or any token', async () => {
    await postSigned(h.port, slashCommand(fake, MANAGER, 'boom', 'r3'));
    await eventually(() => fake.callsTo('/respond/r3').length === 1, 'the failure answer');
    const text = String(fake.callsTo('/respond/r3')[0]?.body.text);
    expect(text).toContain('Could not run `boom`');
    expect(text).toContain('ECONNRESET');
    expect(text).not.toContain('xoxb');
    expect(text).not.toContain('socket hang up');
  });

  it('keeps serving when response_url refuses the answer', async () => {
    fake.script('/respond/r4', { status: 404, body: { ok: false } });
    await postSigned(h.port, slashCommand(fake, MANAGER, 'status', 'r4'));
    await eventually(() => h.logger.lines.some((line) => line.msg === 'Could not deliver a command answer to Slack'), 'the warning');
    const res = await postSigned(h.port, slashCommand(fake, MANAGER, 'help'));
    expect(res.status).toBe(200);
  });

  it('makes no auth.test call when the bot ids are given', async () => {
    await postSigned(h.port, slashCommand(fake, MANAGER, 'help'));
    expect(fake.callsTo('/api/auth.test')).toHaveLength(0);
  });

  it('checks the token with auth.test at start, not at construction, when the bot ids are missing', async () => {
    await h.app.stop();
    fake.script('/api/auth.test', { status: 200, body: { ok: true, user_id: 'UBOT', bot_id: 'B1' } });
    h = await startHarness(fake, { botId: undefined, botUserId: undefined });
    expect(fake.callsTo('/api/auth.test')).toHaveLength(1);
    expect(fake.callsTo('/api/auth.test')[0]?.authorization).toBe('Bearer xoxb-test-token');
  });
});
