import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { probeSlack } from '../../src/slack/probe-slack.js';
import { slackProbeChecks } from '../../src/cli/doctor-slack-checks.js';
import { DEFAULT_FLOWS, fakeIo, REFUSED_PORT, startSimulator, tempDir, type TestSimulator } from './cli-helpers.js';
import { SLACK_CHANNEL, SLACK_GOOD_TOKEN, startFakeSlackApi, type FakeSlackApi } from './fake-slack-api.js';

let slack: FakeSlackApi;
let sim: TestSimulator;
let dir: { path: string; remove(): Promise<void> };

beforeAll(async () => {
  slack = await startFakeSlackApi();
  sim = await startSimulator();
  dir = await tempDir();
});
afterAll(async () => {
  await slack.close();
  await sim.close();
  await dir.remove();
});
beforeEach(() => {
  slack.calls.length = 0;
});

describe('probeSlack', () => {
  it('checks the token with auth.test and the channel with conversations.info', async () => {
    const result = await probeSlack({ token: SLACK_GOOD_TOKEN, apiUrl: slack.url, channel: SLACK_CHANNEL });
    expect(result).toEqual({
      auth: { ok: true, team: 'Acme', user: 'engage-bot', botId: 'B1' },
      channel: { ok: true, name: 'escalations', isMember: true, isArchived: false },
    });
    expect(slack.calls.map((c) => c.method)).toEqual(['auth.test', 'conversations.info']);
    expect(slack.calls[1]?.fields.channel).toBe(SLACK_CHANNEL);
  });

  it('reports invalid_auth once, without retrying and without looking at the channel', async () => {
    const result = await probeSlack({ token: 'xoxb-revoked', apiUrl: slack.url, channel: SLACK_CHANNEL });
    expect(result).toEqual({ auth: { ok: false, error: 'invalid_auth' } });
    expect(slack.calls.map((c) => c.method)).toEqual(['auth.test']);
  });

  it('reports channel_not_found for a channel Slack does not know', async () => {
    const result = await probeSlack({ token: SLACK_GOOD_TOKEN, apiUrl: slack.url, channel: 'C0NOPE' });
    expect(result.auth.ok).toBe(true);
    expect(result.channel).toEqual({ ok: false, error: 'channel_not_found' });
  });

  it('reports an unreachable Slack as a request failure without the token', async () => {
    const result = await probeSlack({ token: 'xoxb-secret-value', apiUrl: `http://127.0.0.1:${REFUSED_PORT}/api/` });
    expect(result.auth.ok).toBe(false);
    expect(JSON.stringify(result)).toMatch(/request_failed: ECONNREFUSED/);
    expect(JSON.stringify(result)).not.toContain('xoxb-secret-value');
  });
});

describe('engage-bridge doctor with Slack configured', () => {
  async function doctor(slackEnv: Record<string, string>) {
    const io = fakeIo(
      {
        ENGAGE_BASE_URL: sim.url,
        ENGAGE_ACCESS_TOKEN: 'sim-token',
        ENGAGE_ACCOUNT_ID: '1001',
        BRIDGE_FLOW_FILE: DEFAULT_FLOWS,
        BRIDGE_DATA_DIR: join(dir.path, 'data'),
        SLACK_SIGNING_SECRET: 'signing-secret',
        SLACK_MANAGER_IDS: 'UMANAGER',
        SLACK_API_URL: slack.url,
        ...slackEnv,
      },
      dir.path,
    );
    const code = await runCli(['doctor'], io);
    return { code, out: io.out() };
  }

  it('passes with a working token and channel', async () => {
    const { code, out } = await doctor({ SLACK_BOT_TOKEN: SLACK_GOOD_TOKEN, SLACK_ESCALATION_CHANNEL: SLACK_CHANNEL });
    expect(out).toMatch(/^✔ Slack token works — bot @engage-bot, workspace Acme$/m);
    expect(out).toMatch(/^✔ Slack escalation channel — #escalations$/m);
    expect(code).toBe(0);
  });

  it('fails on invalid_auth and says which setting to fix, never printing the token', async () => {
    const { code, out } = await doctor({ SLACK_BOT_TOKEN: 'xoxb-wrong-token', SLACK_ESCALATION_CHANNEL: SLACK_CHANNEL });
    expect(code).toBe(1);
    expect(out).toMatch(/^✘ Slack token works — invalid_auth: .*SLACK_BOT_TOKEN/m);
    expect(out).not.toContain('xoxb-wrong-token');
  });

  it('fails on channel_not_found and says to use the channel id', async () => {
    const { code, out } = await doctor({ SLACK_BOT_TOKEN: SLACK_GOOD_TOKEN, SLACK_ESCALATION_CHANNEL: 'C0MISSING' });
    expect(code).toBe(1);
    expect(out).toMatch(/^✘ Slack escalation channel — C0MISSING: channel_not_found: .*channel id/m);
  });

  it('does not call Slack when no bot token is set', async () => {
    const { code, out } = await doctor({});
    expect(code).toBe(0);
    expect(out).not.toContain('Slack token works');
    expect(slack.calls).toEqual([]);
  });
});

describe('slackProbeChecks', () => {
  it('does not fail a channel it may not look up (channels:read is optional)', () => {
    const checks = slackProbeChecks({ auth: { ok: true, user: 'bot' }, channel: { ok: false, error: 'missing_scope' } }, 'C1');
    expect(checks[1]).toMatchObject({ ok: true });
    expect(checks[1]?.detail).toContain('channels:read');
  });

  it('fails an archived channel, and notes a channel the bot is not in', () => {
    const archived = slackProbeChecks({ auth: { ok: true }, channel: { ok: true, name: 'old', isArchived: true } }, 'C1');
    expect(archived[1]).toMatchObject({ ok: false });
    const outside = slackProbeChecks({ auth: { ok: true }, channel: { ok: true, name: 'esc', isMember: false } }, 'C1');
    expect(outside[1]).toMatchObject({ ok: true });
    expect(outside[1]?.detail).toContain('invite');
  });

  it('says Slack is rate limiting rather than that the token is wrong', () => {
    expect(slackProbeChecks({ auth: { ok: false, error: 'ratelimited' } }, undefined)[0]?.detail).toMatch(/rate limiting/);
  });
});
