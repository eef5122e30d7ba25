import { describe, expect, it } from 'vitest';
import { runCliCommand } from '../../src/commands/run-cli-command.js';
import { ServerError } from '../../src/engage/errors/index.js';
import { fakeDeps } from './fake-deps.js';

describe('runCliCommand', () => {
  it('runs a manager command from the terminal with exit 0 and audits it as the terminal', async () => {
    const deps = fakeDeps({ managerIds: [] });
    const result = await runCliCommand('bot pause', deps);
    expect(result).toEqual({ exitCode: 0, output: 'Bot paused for every contact.' });
    expect(deps.audits[0]).toMatchObject({ actor: 'cli:terminal', action: 'bot', result: 'ok' });
  });

  it('exits 2 with the usage for a malformed command, acts on nothing, and audits it as malformed', async () => {
    const deps = fakeDeps();
    const result = await runCliCommand('handover 7001', deps);
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(/not a contact on a channel[\s\S]*Usage: handover/);
    expect(deps.calls.filter((c) => c.port !== 'audit')).toEqual([]);
    expect(deps.audits).toEqual([expect.objectContaining({ actor: 'cli:terminal', action: 'malformed', result: 'failed' })]);
  });

  it('exits 1 with one sentence when the API fails', async () => {
    const deps = fakeDeps({
      engage: { businessHours: { list: async () => Promise.reject(new ServerError({ method: 'GET', path: '/x', status: 500 })) } },
    });
    expect(await runCliCommand('hours', deps)).toEqual({
      exitCode: 1,
      output: 'The Engage service had a fault: try again in a moment.',
    });
  });
});
