import { describe, it, expect, afterEach } from 'vitest';
import { askCommandSocket } from '../../src/http/ask-command-socket.js';
import { runCliCommand } from '../../src/commands/index.js';
import { commandSocketPath } from '../../src/http/command-socket.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

async function pausedForAll(): Promise<boolean> {
  return (await h!.running.bridge.control.health()).botPausedForAll;
}

describe('manager commands from the terminal', () => {
  it('are not taken on the HTTP listener: a cross-origin text/plain request from a web page does not pause the bot', async () => {
    h = await startHarness();
    const res = await fetch(`${h.running.http.url}/commands`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
      body: JSON.stringify({ text: 'bot pause' }),
    });
    expect(res.status).toBe(404);
    expect(await pausedForAll()).toBe(false);
  });

  it('are not taken on the HTTP listener through a reverse proxy on the same host either', async () => {
    h = await startHarness();
    const res = await fetch(`${h.running.http.url}/commands`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7', host: 'bridge.example.com' },
      body: JSON.stringify({ text: 'bot pause' }),
    });
    expect(res.status).toBe(404);
    expect(await pausedForAll()).toBe(false);
  });

  it('are taken on the owner-only socket in the data directory', async () => {
    h = await startHarness();
    const answer = await askCommandSocket(commandSocketPath(h.dataDir), 'bot pause');
    expect(answer?.exitCode).toBe(0);
    expect(await pausedForAll()).toBe(true);
  });
});

describe('the handover command with a configured channel → service mapping', () => {
  it("asks the service about the channel's configured handover service, not the channel's name", async () => {
    h = await startHarness({ env: { ENGAGE_CHANNEL_SERVICES: 'web=livechat' } });
    await runCliCommand('handover web/v-42 status', h.running.commandDeps);
    const paths = h.requests().map((r) => r.path);
    expect(paths.some((p) => p.includes('/inbox/handover/livechat/v-42'))).toBe(true);
    expect(paths.some((p) => p.includes('/inbox/handover/web/v-42'))).toBe(false);
  });
});
