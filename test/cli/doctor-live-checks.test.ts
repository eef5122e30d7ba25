import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
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
  // An account with some life in it: two customers a minute apart, and an agent's reply (a publisher mention).
  const now = Math.floor(Date.now() / 1000);
  await sim.control('/_sim/clock', { now: now - 120 });
  await sim.control('/_sim/inbound', { channel: 'whatsapp', author: { id: '32470000201', name: 'Ann' }, text: 'hello' });
  await sim.control('/_sim/clock', { now: now - 60 });
  await sim.control('/_sim/inbound', { channel: 'web', author: { id: 'visitor-7', name: 'Bob' }, text: 'hi there' });
  await sim.control('/_sim/agent/reply', { channel: 'web', service_id: 'visitor-7', text: 'Hello Bob' });
  await sim.control('/_sim/clock', {});
});
afterEach(async () => {
  await dir.remove();
});

async function doctorLive(env: Record<string, string> = {}) {
  const io = fakeIo(
    {
      ENGAGE_BASE_URL: sim.url,
      ENGAGE_ACCESS_TOKEN: 'sim-token',
      ENGAGE_ACCOUNT_ID: '1001',
      BRIDGE_FLOW_FILE: DEFAULT_FLOWS,
      BRIDGE_DATA_DIR: join(dir.path, 'data'),
      ...env,
    },
    dir.path,
  );
  const code = await runCli(['doctor', '--live'], io);
  return { code, out: io.out(), err: io.err() };
}

function line(out: string, name: string): string {
  const found = out.split('\n').find((l) => l.slice(2).startsWith(name));
  if (found === undefined) throw new Error(`no line "${name}" in:\n${out}`);
  return found;
}

const realism = (r: Record<string, unknown>) => sim.control('/_sim/realism', r);

describe('engage-bridge doctor --live against the simulator', () => {
  it('passes every go-live check on the simulator as it is, and writes nothing', async () => {
    const { code, out, err } = await doctorLive();
    expect(out).not.toContain('✘');
    expect(err).toBe('');
    expect(code).toBe(0);
    for (const name of [
      'live: mention date fields',
      'live: the mentions list honours the window',
      'live: the mentions list honours the order',
      'live: the mentions list honours the source filter',
      'live: the mentions list honours limit',
      'live: handover items show the owner and its date',
      'live: a contact never handed over has a handover item',
      'live: publisher mentions name the publishing user',
      'live: canned-response types are lower case',
      'live: schedule weekdays count from Sunday = 0',
      'live: topics fit on one page',
    ]) {
      expect(line(out, name)).toMatch(/^✔/);
    }
    const log = (await sim.control('/_sim/requests?after=0')) as
      | { data?: { method: string; status: number }[] }
      | { method: string; status: number }[];
    const entries = Array.isArray(log) ? log : (log.data ?? []);
    // The only write is doctor's scope probe, refused (nothing it addresses exists), as without --live.
    expect(entries.filter((e) => e.method !== 'GET').map((e) => e.status)).toEqual([404]);
  });

  it('fails the handover-history check when handover items show no date', async () => {
    await realism({ handover_date_hidden: true });
    const { code, out, err } = await doctorLive();
    expect(code).toBe(1);
    expect(line(out, 'live: handover items show the owner and its date')).toMatch(/^✘ .*no date\.updated: .*never claims a contact/);
    expect(err).toContain('live: handover items show the owner and its date');
  });

  it('fails the handover-item check when a first contact answers 404', async () => {
    await realism({ handover_404_new_contacts: true });
    const { code, out } = await doctorLive();
    expect(code).toBe(1);
    expect(line(out, 'live: a contact never handed over has a handover item')).toMatch(/^✘ .*answered 404: .*left with people with a note/);
  });

  it('fails the publisher-mention check when they carry no user_id', async () => {
    await realism({ echo_author_anonymous: true });
    const { code, out } = await doctorLive();
    expect(code).toBe(1);
    expect(line(out, 'live: publisher mentions name the publishing user')).toMatch(/^✘ .*carry no user_id: /);
  });

  it('fails the mention date check when timestamps come as text', async () => {
    await realism({ loose_types: true });
    const { code, out } = await doctorLive();
    expect(code).toBe(1);
    expect(line(out, 'live: mention date fields are numbers')).toMatch(/^✘ .*carry date\.added as "/);
  });

  it.each([
    ['date_from', 'live: the mentions list honours the window', /date_from is ignored; the poller reads newest first/],
    ['sort', 'live: the mentions list honours the order', /order asked for is ignored; the poller reads newest first/],
    ['filter', 'live: the mentions list honours the source filter', /it is ignored; the poller sends no filter/],
    ['limit', 'live: the mentions list honours limit', /the page size is the service's own/],
  ])('fails the mentions-list check when the list ignores %s', async (ignored, name, detail) => {
    await realism({ mentions_ignore: [ignored] });
    const { code, out } = await doctorLive({ ENGAGE_CHANNELS: 'whatsapp' });
    expect(code).toBe(1);
    expect(line(out, name)).toMatch(/^✘ /);
    expect(line(out, name)).toMatch(detail);
  });

  it('fails the canned-response type check when types come in upper case', async () => {
    await realism({ canned_type_case: 'upper' });
    const { code, out } = await doctorLive();
    expect(code).toBe(1);
    expect(line(out, 'live: canned-response types are lower case')).toMatch(/^✘ .*BUTTONS.*case-tolerantly/);
    // …and the menu and survey checks read them as the bridge does: BUTTONS is a buttons menu.
    expect(line(out, 'canned response "Main menu"')).toMatch(/^✔ .*3 buttons/);
    expect(line(out, 'CSAT canned response (survey)')).toMatch(/^✔ /);
  });

  it.each([
    ['monday0', /days 0, 1, 2, 3, 4, .*Monday = 0/],
    ['sunday1', /days 2, 3, 4, 5, 6, .*Sunday = 1/],
  ])('fails the weekday check when the account numbers its days %s', async (numbering, detail) => {
    await realism({ weekday_numbering: numbering });
    const { code, out } = await doctorLive();
    expect(code).toBe(1);
    expect(line(out, 'live: schedule weekdays count from Sunday = 0')).toMatch(/^✘ /);
    expect(line(out, 'live: schedule weekdays count from Sunday = 0')).toMatch(detail);
  });

  it('refuses --live with --offline', async () => {
    const io = fakeIo({ ENGAGE_BASE_URL: sim.url, ENGAGE_ACCESS_TOKEN: 'sim-token', ENGAGE_ACCOUNT_ID: '1001' }, dir.path);
    expect(await runCli(['doctor', '--live', '--offline'], io)).toBe(2);
    expect(io.err()).toContain('--live reads the account, so it cannot go with --offline');
  });
});
