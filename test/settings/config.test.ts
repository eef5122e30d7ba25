import { describe, it, expect } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig, loadConfig, redactedConfig, ConfigError } from '../../src/config.js';
import { SETTINGS } from '../../src/settings/settings-table.js';
import { testTempDir } from '../support/temp-dir.js';

function problemsOf(fn: () => unknown): readonly string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('settings', () => {
  it('gives the documented defaults and demo mode when nothing is set', () => {
    const config = parseConfig({ env: {} });
    expect(config.demo).toBe(true);
    expect(config.engage.baseUrl).toBe('https://api.engagor.com');
    expect(config.engage.apiVersion).toBe('20210601');
    expect(config.engage.channels).toEqual(['web', 'whatsapp', 'viber', 'twilio']);
    expect(config.bridge.pollIntervalMs).toBe(2000);
    expect(config.bridge.httpPort).toBe(3000);
    expect(config.bridge.dataDir).toBe('./data');
    expect(config.slack.port).toBe(3001);
    expect(config.slack.command).toBe('/engage');
    expect(config.slack.managerIds).toEqual([]);
    expect(config.logLevel).toBe('info');
  });

  it('reports every invalid key at once, each with what is wrong', () => {
    const problems = problemsOf(() =>
      parseConfig({
        env: {
          ENGAGE_BASE_URL: 'not a url',
          ENGAGE_API_VERSION: '2021',
          ENGAGE_CHANNELS: 'web,telegram',
          BRIDGE_POLL_INTERVAL_MS: 'soon',
          BRIDGE_HTTP_PORT: '70000',
          SLACK_COMMAND: 'engage',
          LOG_LEVEL: 'loud',
        },
      }),
    );
    const keys = problems.map((p) => p.split(':')[0]);
    expect(keys).toEqual(
      expect.arrayContaining([
        'ENGAGE_BASE_URL',
        'ENGAGE_API_VERSION',
        'ENGAGE_CHANNELS',
        'BRIDGE_POLL_INTERVAL_MS',
        'BRIDGE_HTTP_PORT',
        'SLACK_COMMAND',
        'LOG_LEVEL',
      ]),
    );
    expect(problems.length).toBe(7);
  });

  it('never echoes a secret value in a validation problem', () => {
    const problems = problemsOf(() => parseConfig({ env: { ENGAGE_ACCESS_TOKEN: '   ', SLACK_PORT: 'x' } }));
    expect(problems.join('\n')).not.toContain('   ');
    const withSecret = problemsOf(() =>
      parseConfig({ env: {}, file: { file: 'settings.yaml', values: { SLACK_SIGNING_SECRET: { nested: 'hunter22' } } } }),
    );
    expect(withSecret.join('\n')).not.toContain('hunter22');
  });

  it('lets the environment win over .env, and .env over the settings file', () => {
    const config = parseConfig({
      env: { BRIDGE_POLL_INTERVAL_MS: '500' },
      dotenv: { file: '.env', text: 'BRIDGE_POLL_INTERVAL_MS=700\nBRIDGE_HTTP_PORT=4000\n' },
      file: { file: 'settings.yaml', values: { BRIDGE_POLL_INTERVAL_MS: 900, BRIDGE_HTTP_PORT: 5000, BRIDGE_DATA_DIR: '/var/x' } },
    });
    expect(config.bridge.pollIntervalMs).toBe(500);
    expect(config.bridge.httpPort).toBe(4000);
    expect(config.bridge.dataDir).toBe('/var/x');
  });

  it('rejects an unknown key in the settings file by name', () => {
    const problems = problemsOf(() => parseConfig({ env: {}, file: { file: 'settings.yaml', values: { BRIDGE_POL: 1 } } }));
    expect(problems).toEqual(['settings.yaml: BRIDGE_POL: unknown setting']);
  });

  it('reads lists from comma text and from a YAML list', () => {
    const config = parseConfig({
      env: { ENGAGE_TOPIC_IDS: '2001, 2002' },
      file: { file: 's.yaml', values: { SLACK_MANAGER_IDS: ['U1', 'U2'] } },
    });
    expect(config.engage.topicIds).toEqual(['2001', '2002']);
    expect(config.slack.managerIds).toEqual(['U1', 'U2']);
  });

  it('keeps secrets out of the redacted view and lists them for the logger', () => {
    const config = parseConfig({
      env: {
        ENGAGE_ACCESS_TOKEN: 'tok-123456',
        SLACK_BOT_TOKEN: 'xoxb-abcdef',
        BRIDGE_WEBHOOK_SECRET: 'hook-secret-of-at-least-32-characters',
      },
    });
    expect(config.demo).toBe(false);
    const view = JSON.stringify(redactedConfig(config));
    for (const secret of ['tok-123456', 'xoxb-abcdef', 'hook-secret-of-at-least-32-characters']) {
      expect(view).not.toContain(secret);
      expect(config.secrets).toContain(secret);
    }
  });

  it('refuses a webhook secret shorter than 32 characters, without quoting it (#12.2)', () => {
    const problems = problemsOf(() => parseConfig({ env: { BRIDGE_WEBHOOK_SECRET: 'short-secret' } }));
    expect(problems.join('\n')).toMatch(/BRIDGE_WEBHOOK_SECRET.*at least 32 characters/);
    expect(problems.join('\n')).not.toContain('short-secret');
  });

  it('refuses a long webhook secret that is a repeat or a known placeholder, without quoting it', () => {
    for (const weak of [
      'a'.repeat(40),
      'abcd'.repeat(10),
      'changeme-changeme-changeme-changeme-1',
      'your-webhook-secret-goes-here-0123456789',
    ]) {
      const problems = problemsOf(() => parseConfig({ env: { BRIDGE_WEBHOOK_SECRET: weak } })).join('\n');
      expect(problems).toMatch(/BRIDGE_WEBHOOK_SECRET.*(too regular|placeholder)/);
      expect(problems).not.toContain(weak);
    }
    expect(parseConfig({ env: { BRIDGE_WEBHOOK_SECRET: '3f9a1c0e7b2d4a6f8e1c3b5d7f9a0c2e' } }).bridge.webhookSecret).toBeDefined();
  });

  it('loads .env and config/settings.yaml from the working directory', () => {
    const dir = testTempDir('eb-config-');
    writeFileSync(join(dir, '.env'), 'LOG_LEVEL=debug\n');
    mkdirSync(join(dir, 'config'));
    writeFileSync(join(dir, 'config', 'settings.yaml'), 'BRIDGE_HTTP_PORT: 0\n');
    const config = loadConfig({ cwd: dir, env: {} });
    expect(config.logLevel).toBe('debug');
    expect(config.bridge.httpPort).toBe(0);
  });

  it('names a settings file that does not parse', () => {
    const dir = testTempDir('eb-config-');
    writeFileSync(join(dir, 'bad.json'), '{ nope');
    const problems = problemsOf(() => loadConfig({ cwd: dir, env: {}, configFile: 'bad.json' }));
    expect(problems[0]).toContain('bad.json');
  });

  it('refuses BRIDGE_STORE_ENGINE=file, the removed journal store, saying the data directory is imported', () => {
    const problems = problemsOf(() => parseConfig({ env: { BRIDGE_STORE_ENGINE: 'file' } }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^BRIDGE_STORE_ENGINE: .*removed.*imported/);
    expect(parseConfig({ env: { BRIDGE_STORE_ENGINE: 'sqlite' } }).demo).toBe(true);
  });

  it('documents every setting in the README table', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const s of SETTINGS) expect(readme, s.name).toContain(`| \`${s.name}\``);
  });
});

describe('secrets for the log scrubber', () => {
  it('hands every secret value to the scrubber, even one shorter than four characters', () => {
    const config = parseConfig({ env: { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'k9z' } });
    expect(config.secrets).toContain('k9z');
  });
});

describe('errors about settings files never show their content', () => {
  const TOKEN_TAIL = 'q7Zx9-secret-tail';
  function withFile(name: string, text: string): readonly string[] {
    const dir = mkdtempSync(join(tmpdir(), 'eb-config-'));
    try {
      mkdirSync(join(dir, 'config'), { recursive: true });
      writeFileSync(join(dir, 'config', name), text);
      return problemsOf(() => loadConfig({ cwd: dir, env: {} }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('names the file and the problem of a JSON settings file with a bad token, not the token', () => {
    const problems = withFile('settings.json', `{\n  "ENGAGE_ACCOUNT_ID": "1001",\n  "ENGAGE_ACCESS_TOKEN": "abc"${TOKEN_TAIL}"\n}\n`);
    const text = problems.join('\n');
    expect(text).toContain('settings.json');
    expect(text).toContain('not valid JSON');
    expect(text).not.toContain(TOKEN_TAIL.slice(0, 4));
    expect(text).not.toContain('abc');
  });

  it('names the file, line and problem of a YAML settings file with a bad token, not the token', () => {
    const problems = withFile('settings.yaml', `ENGAGE_ACCOUNT_ID: "1001"\nENGAGE_ACCESS_TOKEN: "abc${TOKEN_TAIL}\n  more: [\n`);
    const text = problems.join('\n');
    expect(text).toMatch(/settings\.yaml line \d+, column \d+: not valid YAML/);
    expect(text).not.toContain(TOKEN_TAIL.slice(0, 4));
  });

  it('names where a refused value was set instead of echoing it', () => {
    const problems = withFile('settings.yaml', `ENGAGE_ACCOUNT_ID: "1001"\nENGAGE_API_VERSION: ${TOKEN_TAIL}\n`);
    const text = problems.join('\n');
    expect(text).toMatch(/ENGAGE_API_VERSION: .*settings\.yaml line 2/);
    expect(text).not.toContain(TOKEN_TAIL);
  });

  it('does not echo a key that is no setting name (a token pasted as a key)', () => {
    const problems = withFile('settings.yaml', `ENGAGE_ACCOUNT_ID: "1001"\n"xoxb-${TOKEN_TAIL}": 1\n`);
    expect(problems.join('\n')).not.toContain(TOKEN_TAIL);
  });
});
