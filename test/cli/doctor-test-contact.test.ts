import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { TEST_REPLY_TEXT } from '../../src/cli/doctor-test-contact.js';
import { DEFAULT_FLOWS, fakeIo, startSimulator, tempDir, type TestSimulator } from './cli-helpers.js';

let sim: TestSimulator;
let dir: { path: string; remove(): Promise<void> };

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await sim.control('/_sim/reset', {});
  dir = await tempDir();
  // The operator's own phone wrote once; another customer wrote too (and must be left alone).
  await sim.control('/_sim/inbound', { channel: 'whatsapp', author: { id: '32470000777', name: 'Operator' }, text: 'test' });
  await sim.control('/_sim/inbound', { channel: 'whatsapp', author: { id: '32470000888', name: 'Someone' }, text: 'hello' });
});
afterEach(async () => {
  await dir.remove();
});

async function doctor(flags: string[]) {
  const io = fakeIo(
    {
      ENGAGE_BASE_URL: sim.url,
      ENGAGE_ACCESS_TOKEN: 'sim-token',
      ENGAGE_ACCOUNT_ID: '1001',
      BRIDGE_FLOW_FILE: DEFAULT_FLOWS,
      BRIDGE_DATA_DIR: join(dir.path, 'data'),
    },
    dir.path,
  );
  const code = await runCli(['doctor', ...flags], io);
  return { code, out: io.out(), err: io.err() };
}

const testLines = (out: string) => out.split('\n').filter((l) => l.includes('test contact whatsapp/32470000777'));

async function writes() {
  const log = (await sim.control('/_sim/requests?after=0')) as
    | { data?: { method: string; path: string; status: number }[] }
    | { method: string; path: string; status: number }[];
  const entries = Array.isArray(log) ? log : (log.data ?? []);
  return entries.filter((e) => e.method !== 'GET' && !e.path.startsWith('/_sim'));
}

describe('engage-bridge doctor --live --test-contact', () => {
  it('makes one round trip on that contact only, says each step, and writes nothing else', async () => {
    const { code, out } = await doctor(['--live', '--test-contact', 'whatsapp/32470000777']);
    const lines = testLines(out);
    expect(lines.map((l) => l.slice(0, 1))).toEqual(['✔', '✔', '✔', '✔', '✔', '✔', '✔']);
    expect(lines.join('\n')).toMatch(/claim \(DELETE handover\) — the bot owns the contact/);
    expect(lines.join('\n')).toMatch(/the reply's echo is the bot's own — .*= the publishing user/);
    expect(lines.at(-1)).toMatch(/hand back .*one reply sent to this contact, its ownership set three times, nothing else written/);
    expect(code).toBe(0);
    const w = (await writes()).map((e) => `${e.method} ${e.path.replace(/\?.*/, '')}`);
    // The scope probe (refused, as without --live), then the round trip: claim, the reply, to people, back.
    expect(w.filter((x) => !x.includes('/users/') && !x.includes('/user/'))).toEqual([
      'DELETE /1001/inbox/handover/whatsapp/32470000777',
      'POST /1001/publisher/add',
      'POST /1001/inbox/handover/whatsapp/32470000777',
      'DELETE /1001/inbox/handover/whatsapp/32470000777',
    ]);
    const outbound = (await sim.control('/_sim/outbound')) as unknown;
    expect(JSON.stringify(outbound)).toContain(TEST_REPLY_TEXT);
    expect(JSON.stringify(outbound)).not.toContain('32470000888');
  });

  it('fails the publish-answer line when a 2xx publish answers with an empty body', async () => {
    await sim.control('/_sim/realism', { publish_answer_shape: 'empty' });
    const { code, out } = await doctor(['--live', '--test-contact', 'whatsapp/32470000777']);
    expect(code).toBe(1);
    expect(testLines(out).find((l) => l.includes('one reply (publisher/add)'))).toMatch(/^✘ .*sent \(2xx\).*not the envelope/);
  });

  it('fails the echo line when the account names its own messages after the stream', async () => {
    await sim.control('/_sim/realism', { echo_author_anonymous: true });
    const { code, out } = await doctor(['--live', '--test-contact', 'whatsapp/32470000777']);
    expect(code).toBe(1);
    expect(testLines(out).find((l) => l.includes("the reply's echo is the bot's own"))).toMatch(
      /^✘ .*not the publishing user.*reply service id/,
    );
  });

  it('writes nothing when the contact has not written, and says what to do', async () => {
    const { code, out } = await doctor(['--live', '--test-contact', 'whatsapp/32470000999']);
    expect(code).toBe(1);
    expect(out).toMatch(/✘ test contact whatsapp\/32470000999: its newest message — none among the newest 50 mentions: write one message/);
    expect((await writes()).filter((e) => !e.path.includes('user'))).toEqual([]);
  });

  it('refuses a contact on a channel the bridge does not serve, and --test-contact without --live', async () => {
    expect((await doctor(['--live', '--test-contact', 'fax/123'])).out).toMatch(
      /✘ test contact — --test-contact: "fax" is not a served channel/,
    );
    const alone = await doctor(['--test-contact', 'whatsapp/32470000777']);
    expect(alone.code).toBe(2);
    expect(alone.err).toContain('--test-contact goes with --live');
  });
});
