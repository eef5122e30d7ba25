import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { DEFAULT_FLOWS, fakeIo, REFUSED_PORT, startSimulator, tempDir, type TestSimulator } from './cli-helpers.js';

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
});
afterEach(async () => {
  await dir.remove();
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ENGAGE_BASE_URL: sim.url,
    ENGAGE_ACCESS_TOKEN: 'sim-token',
    ENGAGE_ACCOUNT_ID: '1001',
    BRIDGE_FLOW_FILE: DEFAULT_FLOWS,
    BRIDGE_DATA_DIR: join(dir.path, 'data'),
    ...extra,
  };
}

async function doctor(extra: Record<string, string> = {}, flags: string[] = []) {
  const io = fakeIo(env(extra), dir.path);
  const code = await runCli(['doctor', ...flags], io);
  return { code, out: io.out(), err: io.err() };
}

/** The checklist line of a check, by the start of its name. */
function line(out: string, name: string): string {
  const found = out.split('\n').find((l) => l.slice(2).startsWith(name));
  if (found === undefined) throw new Error(`no line "${name}" in:\n${out}`);
  return found;
}

/** The default flows with the main menu's canned response renamed. */
async function flowsNaming(canned: string): Promise<string> {
  const text = (await readFile(DEFAULT_FLOWS, 'utf8')).replace(/canned_response: .*Main menu.*$/m, `canned_response: ${canned}`);
  const file = join(dir.path, 'flows.yaml');
  await writeFile(file, text);
  return file;
}

describe('engage-bridge doctor against the simulator', () => {
  it('passes every check with the default flows and a token with every scope', async () => {
    const { code, out, err } = await doctor();
    expect(out).not.toContain('✘');
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(line(out, 'Engage token is valid')).toMatch(/^✔/);
    expect(line(out, 'account 1001 is reachable')).toContain('Demo account');
    expect(line(out, 'scope accounts_read')).toMatch(/^✔/);
    expect(line(out, 'scope accounts_write')).toMatch(/^✔/);
    for (const channel of ['web', 'whatsapp', 'viber', 'twilio']) expect(line(out, `handover on ${channel}`)).toMatch(/^✔/);
    expect(line(out, 'canned response "Main menu"')).toContain('3 buttons');
    expect(line(out, 'CSAT canned response (survey)')).toMatch(/^✔ .*#503 "Satisfaction", the account's first of type csat/);
    expect(line(out, 'business hours schedule')).toContain('Support desk');
    expect(out).toMatch(/All \d+ checks passed/);
  });

  it('writes nothing to the account while probing', async () => {
    await doctor();
    const log = (await sim.control('/_sim/requests?after=0')) as
      | { data?: { method: string; status: number }[] }
      | { method: string; status: number }[];
    const entries = Array.isArray(log) ? log : (log.data ?? []);
    expect(entries.length).toBeGreaterThan(0);
    // The only write is the scope probe, and it is refused: nothing it addresses exists.
    const writes = entries.filter((e) => e.method !== 'GET');
    expect(writes.map((w) => w.status)).toEqual([404]);
  });

  it('says to re-authorise when the token was revoked, and exits 1', async () => {
    await sim.control('/_sim/revoke', { user_id: 'u1' });
    const { code, out, err } = await doctor();
    expect(code).toBe(1);
    expect(line(out, 'Engage token is valid')).toMatch(/^✘ .*the user changed their password or revoked access: re-authorise/);
    expect(line(out, 'other Engage probes')).toMatch(/^– .*skipped/);
    expect(err).toMatch(/^engage-bridge doctor: 1 check failed: Engage token is valid\n$/);
  });

  it('fails handover on every channel for a token without accounts_handover', async () => {
    await sim.control('/_sim/tokens', { token: 'no-handover', user_id: 'u2', scopes: ['accounts_read', 'accounts_write'] });
    const { code, out } = await doctor({ ENGAGE_ACCESS_TOKEN: 'no-handover', ENGAGE_CHANNELS: 'whatsapp,web' });
    expect(code).toBe(1);
    expect(line(out, 'handover on whatsapp')).toMatch(/^✘ .*lacks accounts_handover/);
    expect(line(out, 'handover on web')).toMatch(/^✘ .*lacks accounts_handover/);
    expect(out).not.toContain('handover on viber');
    expect(line(out, 'scope accounts_read')).toMatch(/^✔/);
    expect(line(out, 'scope accounts_write')).toMatch(/^✔/);
  });

  it('fails accounts_write for a read-only token without writing anything', async () => {
    await sim.control('/_sim/tokens', { token: 'read-only', user_id: 'u2', scopes: ['accounts_read', 'accounts_handover'] });
    const { code, out } = await doctor({ ENGAGE_ACCESS_TOKEN: 'read-only' });
    expect(code).toBe(1);
    expect(line(out, 'scope accounts_write')).toMatch(/^✘ .*lacks accounts_write/);
    expect(line(out, 'handover on twilio')).toMatch(/^✔/);
  });

  it('fails when the flows name a canned response the account does not have', async () => {
    const { code, out } = await doctor({ BRIDGE_FLOW_FILE: await flowsNaming('Missing menu') });
    expect(code).toBe(1);
    expect(line(out, 'canned response "Missing menu" (menu main)')).toMatch(/^✘ .*no canned response named or with id "Missing menu"/);
  });

  it('fails a survey canned response the account does not have', async () => {
    const text = (await readFile(DEFAULT_FLOWS, 'utf8')).replace('type: csat ', 'type: nps ');
    const file = join(dir.path, 'flows-nps.yaml');
    await writeFile(file, text);
    const { code, out } = await doctor({ BRIDGE_FLOW_FILE: file });
    expect(code).toBe(1);
    expect(line(out, 'NPS canned response (survey)')).toMatch(/^✘ .*no canned response of type nps/);
  });

  it('finds a canned response by id, and fails one that is not of type buttons', async () => {
    expect(line((await doctor({ BRIDGE_FLOW_FILE: await flowsNaming("'501'") })).out, 'canned response "501"')).toMatch(/^✔/);
    const { code, out } = await doctor({ BRIDGE_FLOW_FILE: await flowsNaming('Greeting') });
    expect(code).toBe(1);
    expect(line(out, 'canned response "Greeting"')).toMatch(/^✘ .*is of type text, not buttons/);
  });

  it('fails a business hours schedule name the account does not have, listing the ones it has', async () => {
    const { code, out } = await doctor({ BRIDGE_BUSINESS_HOURS_SCHEDULE: 'Night shift' });
    expect(code).toBe(1);
    expect(line(out, 'business hours schedule')).toMatch(/^✘ .*"Night shift".*BRIDGE_BUSINESS_HOURS_SCHEDULE.*"Support desk" #301/);
  });

  it('finds the schedule by id or by name in any case', async () => {
    expect(line((await doctor({ BRIDGE_BUSINESS_HOURS_SCHEDULE: '301' })).out, 'business hours schedule')).toMatch(
      /^✔ business hours schedule — "Support desk" #301/,
    );
    expect(line((await doctor({ BRIDGE_BUSINESS_HOURS_SCHEDULE: 'support DESK' })).out, 'business hours schedule')).toMatch(/^✔/);
  });

  it('fails an account the token cannot reach, naming the ones it can', async () => {
    const { code, out } = await doctor({ ENGAGE_ACCOUNT_ID: '4242' });
    expect(code).toBe(1);
    expect(line(out, 'account 4242 is reachable')).toMatch(/^✘ .*ENGAGE_ACCOUNT_ID.*1001 "Demo account"/);
  });

  it('fails configured topics the account does not have', async () => {
    const { code, out } = await doctor({ ENGAGE_TOPIC_IDS: '2001,9999' });
    expect(code).toBe(1);
    expect(line(out, 'configured topics exist')).toMatch(/^✘ configured topics exist — no topic 9999/);
  });

  it('says it cannot reach Engage when nothing listens at the base URL', async () => {
    const { code, out } = await doctor({ ENGAGE_BASE_URL: `http://127.0.0.1:${REFUSED_PORT}` });
    expect(code).toBe(1);
    expect(line(out, 'Engage token is valid')).toMatch(/^✘ .*ENGAGE_BASE_URL/);
  });
});

describe('engage-bridge doctor without the network', () => {
  it('makes no request with --offline', async () => {
    const { code, out } = await doctor({}, ['--offline']);
    expect(code).toBe(0);
    expect(line(out, 'online probes')).toMatch(/^– .*--offline/);
    const log = await sim.control('/_sim/requests?after=0');
    expect(Array.isArray(log) ? log : log.data).toEqual([]);
  });

  it('in demo mode parses the flows and says the online part is skipped', async () => {
    const { ENGAGE_ACCESS_TOKEN: _token, ...demo } = env();
    const io = fakeIo(demo, dir.path);
    expect(await runCli(['doctor'], io)).toBe(0);
    expect(line(io.out(), 'settings are valid')).toContain('demo mode');
    expect(line(io.out(), 'flow file is valid')).toMatch(/^✔ .*2 menus, 5 intents/);
    expect(line(io.out(), 'online probes')).toMatch(/^– online probes — skipped: demo mode/);
  });

  it('reports the flow file problem with its path and line', async () => {
    const file = join(dir.path, 'broken.yaml');
    await writeFile(file, (await readFile(DEFAULT_FLOWS, 'utf8')).replace('then: { intent: opening_hours }', 'then: { menu: nowhere }'));
    const { code, out } = await doctor({ BRIDGE_FLOW_FILE: file }, ['--offline']);
    expect(code).toBe(1);
    expect(line(out, 'flow file is valid')).toMatch(
      /^✘ .*broken\.yaml: menus\.main\.buttons\.0\.then\.menu \(line \d+\): no menu named "nowhere"/,
    );
  });

  it('fails a flow file that does not exist', async () => {
    const { code, out } = await doctor({ BRIDGE_FLOW_FILE: join(dir.path, 'none.yaml') }, ['--offline']);
    expect(code).toBe(1);
    expect(line(out, 'flow file is valid')).toMatch(/^✘ .*the file does not exist/);
  });

  it('lists invalid settings as one failed check', async () => {
    const { code, out, err } = await doctor({ BRIDGE_POLL_INTERVAL_MS: 'soon' });
    expect(code).toBe(1);
    expect(line(out, 'settings are valid')).toMatch(/^✘ .*BRIDGE_POLL_INTERVAL_MS/);
    expect(err).toContain('settings are not valid');
  });
});

describe('engage-bridge doctor outside the repository', () => {
  it('uses the flows shipped with the package in a directory without config/flows.yaml, and says so', async () => {
    const empty = await tempDir();
    try {
      const io = fakeIo({ BRIDGE_DATA_DIR: join(empty.path, 'data') }, empty.path);
      const code = await runCli(['doctor', '--offline'], io);
      expect(io.out()).toMatch(/flow file is valid.*config\/flows\.yaml \(from the package\)/);
      expect(code).toBe(0);
    } finally {
      await empty.remove();
    }
  });

  it('prefers ./config/flows.yaml in the working directory over the packaged flows', async () => {
    const here = await tempDir();
    try {
      expect(await runCli(['init'], fakeIo({}, here.path))).toBe(0);
      const io = fakeIo({ BRIDGE_DATA_DIR: join(here.path, 'data') }, here.path);
      expect(await runCli(['doctor', '--offline'], io)).toBe(0);
      expect(io.out()).toContain(`${join(here.path, 'config/flows.yaml')} (from the working directory)`);
    } finally {
      await here.remove();
    }
  });
});
