import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeed, loadSeedFile, parseSeed, runSimulatorCommand } from '../../src/simulator/index.js';
import { startSim } from './sim-helpers.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sim-seed-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('seed', () => {
  it('has the documented default account', () => {
    const seed = parseSeed(defaultSeed);
    expect(seed.account.id).toBe('1001');
    expect(seed.topics).toEqual([{ id: 2001, name: 'Support' }]);
    expect(seed.tokens[0]).toMatchObject({ token: 'sim-token', user_id: 'u1' });
    expect(seed.tokens[0]?.scopes).toEqual(expect.arrayContaining(['accounts_read', 'accounts_write', 'accounts_handover']));
    const menu = seed.canned_responses.find((c) => c.name === 'Main menu');
    expect(menu?.data.buttons.map((b) => b.title)).toEqual(['Opening hours', 'Order status', 'Talk to an agent']);
    expect(seed.business_hours_schedules[0]).toMatchObject({ name: 'Support desk', timezone: 'Europe/Brussels' });
    expect(seed.users).toHaveLength(2);
    expect(seed.profile_groups).toHaveLength(1);
  });

  it('loads a valid seed file', async () => {
    const file = join(dir, 'ok.json');
    await writeFile(file, JSON.stringify({ ...defaultSeed, account: { id: '42', name: 'Other' } }));
    expect((await loadSeedFile(file)).account.id).toBe('42');
  });

  it('names the file, the path in it and the problem', async () => {
    const file = join(dir, 'bad.json');
    const bad = { ...defaultSeed, business_hours_schedules: [{ id: '1', name: 'x', timezone: 'Nowhere/City', periods: [] }] };
    await writeFile(file, JSON.stringify(bad));
    await expect(loadSeedFile(file)).rejects.toThrow(file);
    await expect(loadSeedFile(file)).rejects.toThrow(/business_hours_schedules\.0\.timezone: .*time zone/);
    await expect(loadSeedFile(file)).rejects.toThrow(/users\.0\.business_hours_schedule_id: unknown schedule/);
  });

  it('reports a file that is missing or not JSON', async () => {
    const file = join(dir, 'broken.json');
    await writeFile(file, '{ nope');
    await expect(loadSeedFile(file)).rejects.toThrow(`Simulator seed file ${file} is not valid JSON`);
    await expect(loadSeedFile(join(dir, 'missing.json'))).rejects.toThrow('Cannot read simulator seed file');
  });
});

describe('reset and the simulator command', () => {
  it('returns to the seed on /_sim/reset while log sequence numbers keep rising', async () => {
    const s = await startSim();
    try {
      await s.inbound('whatsapp', '3247030', 'hi');
      await s.api('GET', '/1001/settings/topics');
      const seqBefore = (await s.control('GET', '/_sim/requests?after=0')).body.at(-1).seq as number;
      await s.control('POST', '/_sim/tokens', { token: 'extra', user_id: 'u1', scopes: [] });
      await s.control('POST', '/_sim/faults', { server_error: 1 });
      expect((await s.control('POST', '/_sim/reset')).status).toBe(200);
      expect((await s.api('GET', '/1001/inbox/mentions')).body.response.count).toBe(0);
      expect((await s.api('GET', '/1001/settings/topics', {}, { token: 'extra' })).status).toBe(401);
      const log = (await s.control('GET', '/_sim/requests?after=0')).body;
      expect(log[0].seq).toBeGreaterThan(seqBefore);
    } finally {
      await s.close();
    }
  });

  it('starts from runSimulatorCommand, prints its base URL and serves the seed file', async () => {
    const file = join(dir, 'cmd.json');
    await writeFile(file, JSON.stringify({ ...defaultSeed, account: { id: '77', name: 'Cmd' } }));
    const lines: string[] = [];
    const running = await runSimulatorCommand({ port: 0, host: '127.0.0.1', seedFile: file, log: (l) => lines.push(l) });
    try {
      expect(lines[0]).toBe(`Engage simulator listening on ${running.url}`);
      expect(lines.join('\n')).not.toContain('sim-token');
      const res = await fetch(`${running.url}/77/settings/topics`, { headers: { authorization: 'Bearer sim-token' } });
      expect(res.status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('refuses to start on an invalid seed file', async () => {
    const file = join(dir, 'cmd-bad.json');
    await writeFile(file, JSON.stringify({ ...defaultSeed, topics: [] }));
    await expect(runSimulatorCommand({ port: 0, seedFile: file, log: () => undefined })).rejects.toThrow(/topics/);
  });
});
