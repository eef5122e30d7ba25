import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { createSlackApp } from '../../src/slack/index.js';
import { FakeSlack, fakeBridge, fakeCommands, postSigned, slashCommand } from './slack-test-kit.js';

describe('wiring the Slack app from the settings and the process logger', () => {
  it('starts from parsed settings with the pino logger and keeps the tokens out of the log', async () => {
    const fake = new FakeSlack();
    await fake.start();
    const config = parseConfig({
      env: {
        SLACK_BOT_TOKEN: 'xoxb-wiring-secret-token',
        SLACK_SIGNING_SECRET: 'wiring-signing-secret',
        SLACK_BOT_ID: 'B1',
        SLACK_BOT_USER_ID: 'UBOT',
        SLACK_PORT: '0',
        SLACK_API_URL: fake.apiUrl,
        SLACK_ESCALATION_CHANNEL: 'CESC',
        SLACK_MANAGER_IDS: 'UMANAGER1,UMANAGER2',
      },
    });
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = createLogger({ level: 'debug', secrets: config.secrets, pretty: false, destination });
    const { botToken, signingSecret, appToken, botId, botUserId, port, apiUrl, escalationChannel, managerIds, command } = config.slack;
    const app = createSlackApp({
      botToken: botToken ?? '',
      signingSecret,
      appToken,
      botId,
      botUserId,
      port,
      apiUrl,
      escalationChannel,
      managerIds,
      command,
      host: '127.0.0.1',
      commands: fakeCommands(),
      bridge: fakeBridge(),
      audit: { audit: () => undefined },
      logger,
      webApiRetries: 0,
    });
    const bound = await app.start();
    expect(bound.port).toBeGreaterThan(0);
    const form = slashCommand(fake, 'UMANAGER2', 'status');
    const res = await postSigned(bound.port ?? 0, form, { secret: 'wiring-signing-secret' });
    expect(res.status).toBe(200);
    app.notifier.tokenRevoked();
    await app.flushNotices();
    expect(fake.callsTo('/api/chat.postMessage')[0]?.authorization).toBe('Bearer xoxb-wiring-secret-token');
    await app.stop();
    await fake.stop();
    const log = lines.join('');
    expect(log).toContain('Slack app listening');
    expect(log).not.toContain('xoxb-wiring-secret-token');
    expect(log).not.toContain('wiring-signing-secret');
  });
});
