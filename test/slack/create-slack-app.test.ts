import { describe, expect, it } from 'vitest';
import { LogLevel } from '@slack/bolt';
import { redactSlackTokens, toBoltLogger } from '../../src/slack/bolt-logger.js';
import { createSlackApp, type SlackAppOptions } from '../../src/slack/create-slack-app.js';
import { FakeSlack, fakeBridge, fakeCommands, recordingLogger } from './slack-test-kit.js';

function options(overrides: Partial<SlackAppOptions> = {}): SlackAppOptions {
  return {
    botToken: 'xoxb-test-token',
    signingSecret: 'secret',
    botId: 'B1',
    botUserId: 'UBOT',
    port: 0,
    host: '127.0.0.1',
    managerIds: [],
    command: '/engage',
    commands: fakeCommands(),
    bridge: fakeBridge(),
    audit: { audit: () => undefined },
    logger: recordingLogger(),
    webApiRetries: 0,
    ...overrides,
  };
}

describe('createSlackApp', () => {
  it('lists every invalid setting in one clear error', () => {
    expect(() => createSlackApp(options({ botToken: ' ', signingSecret: undefined, port: 70000, command: 'engage' }))).toThrow(
      /SLACK_BOT_TOKEN.*SLACK_SIGNING_SECRET is required.*SLACK_PORT must be 0\.\.65535.*"\/engage"/,
    );
  });

  it('uses Socket Mode when an app token is given, needing no signing secret and no network to build', async () => {
    const app = createSlackApp(options({ appToken: 'xapp-1-test', signingSecret: undefined }));
    expect(app.mode).toBe('socket');
    await app.stop();
  });

  it('uses the HTTP receiver by default and reports the port it bound', async () => {
    const app = createSlackApp(options());
    expect(app.mode).toBe('http');
    const { port } = await app.start();
    expect(port).toBeGreaterThan(0);
    await expect(app.start()).rejects.toThrow('it is started');
    await app.stop();
  });

  it('makes no Slack call when it is built, even without the bot ids', async () => {
    const fake = new FakeSlack();
    await fake.start();
    const app = createSlackApp(options({ apiUrl: fake.apiUrl, botId: undefined, botUserId: undefined }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.calls).toHaveLength(0);
    await app.stop();
    await fake.stop();
  });

  it('fails start() with the Slack error when auth.test refuses the token', async () => {
    const fake = new FakeSlack();
    await fake.start();
    fake.script('/api/auth.test', { status: 200, body: { ok: false, error: 'invalid_auth' } });
    const app = createSlackApp(options({ apiUrl: fake.apiUrl, botId: undefined, botUserId: undefined }));
    await expect(app.start()).rejects.toThrow('invalid_auth');
    await app.stop();
    await fake.stop();
  });
});

describe('the Bolt logger bridge', () => {
  it('never writes a Slack token, whatever Bolt logs', () => {
    const logger = recordingLogger();
    const bolt = toBoltLogger(logger, LogLevel.DEBUG);
    bolt.error('call failed with xoxb-123-456-abc and', new Error('xapp-1-A1-2-def'), { token: 'xoxp-9-9' });
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]?.msg).not.toMatch(/xox|xapp/);
    expect(redactSlackTokens('Bearer xoxb-1-2-3')).toBe('Bearer [redacted]');
  });

  it('drops Bolt messages below its level', () => {
    const logger = recordingLogger();
    const bolt = toBoltLogger(logger);
    bolt.info('chatty');
    bolt.warn('worth knowing');
    expect(logger.lines.map((line) => line.msg)).toEqual(['worth knowing']);
  });
});
