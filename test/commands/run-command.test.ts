import { describe, expect, it } from 'vitest';
import { authorize } from '../../src/commands/authorize.js';
import { runCommand } from '../../src/commands/run-command.js';
import {
  AuthError,
  ConnectionError,
  InsufficientScopeError,
  InvalidParameterError,
  NotFoundError,
  RateLimitError,
  ServerError,
} from '../../src/engage/errors/index.js';
import { fakeDeps, manager, stranger } from './fake-deps.js';

const where = { method: 'POST', path: '/1001/inbox/mention/2001/9001' };

describe('authorize', () => {
  it('lets anyone run help', () => {
    expect(authorize(stranger, 'help', [])).toEqual({ allowed: true });
  });
  it('lets listed managers run anything and refuses everyone else', () => {
    expect(authorize(manager, 'bot', ['UMANAGER'])).toEqual({ allowed: true });
    const refused = authorize(stranger, 'bot', ['UMANAGER']);
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) expect(refused.reason).toContain('USTRANGER');
  });
  it('refuses a Slack user with an empty id even when the list holds an empty entry', () => {
    expect(authorize({ id: '', transport: 'slack' }, 'status', ['']).allowed).toBe(false);
  });
  it('treats the terminal as a manager', () => {
    expect(authorize({ id: 'terminal', transport: 'cli' }, 'bot', [])).toEqual({ allowed: true });
  });
});

describe('runCommand', () => {
  it('refuses a non-manager, touches nothing and audits the refusal', async () => {
    const deps = fakeDeps();
    const answer = await runCommand('bot pause', { actor: stranger, deps });
    expect(answer.ok).toBe(false);
    expect(answer.text).toMatch(/Only bridge managers/);
    expect(deps.calls.map((c) => c.port)).toEqual(['audit']);
    expect(deps.audits[0]).toMatchObject({ actor: 'slack:USTRANGER', action: 'bot', subject: 'all contacts', result: 'refused' });
    expect(deps.audits[0]?.at).toBe(Date.parse('2026-11-23T10:00:00Z'));
  });

  it('answers help to anyone and audits it', async () => {
    const deps = fakeDeps();
    const answer = await runCommand('help', { actor: stranger, deps });
    expect(answer.ok).toBe(true);
    expect(answer.text).toContain('Commands:');
    expect(deps.audits).toEqual([expect.objectContaining({ action: 'help', result: 'ok' })]);
  });

  it('audits an allowed command with its subject and result', async () => {
    const deps = fakeDeps();
    const answer = await runCommand('tag 2001/9001 +vip', { actor: manager, deps });
    expect(answer.ok).toBe(true);
    expect(deps.audits).toEqual([
      expect.objectContaining({ actor: 'slack:UMANAGER', action: 'tag', subject: 'mention 2001/9001', result: 'ok' }),
    ]);
  });

  it.each([
    ['a revoked token', new AuthError({ ...where, status: 401 }), /authorise the application again/],
    ['a missing scope', new InsufficientScopeError({ ...where, status: 403 }), /lacks a permission/],
    ['an unknown mention', new NotFoundError({ ...where, status: 404 }), /Engage does not know mention 2001\/9001/],
    ['a rate limit', new RateLimitError({ ...where, status: 429 }, 42_000), /try again in about 42 s/],
    ['a refused parameter', new InvalidParameterError({ ...where, status: 400, description: 'bad tag' }), /refused.*bad tag/],
    ['a server fault', new ServerError({ ...where, status: 503 }), /had a fault/],
    ['no connection', new ConnectionError({ ...where }, 'refused'), /Could not reach/],
    ['a timeout', new ConnectionError({ ...where }, 'timeout'), /did not answer in time/],
  ])('turns %s into a sentence and audits the failure', async (_what, error, sentence) => {
    const deps = fakeDeps({ engage: { mentions: { update: async () => Promise.reject(error) } } });
    const answer = await runCommand('tag 2001/9001 +vip', { actor: manager, deps });
    expect(answer.ok).toBe(false);
    expect(answer.text).toMatch(sentence);
    expect(answer.text).not.toMatch(/at .*\.ts:\d+/);
    expect(deps.audits).toEqual([expect.objectContaining({ result: 'failed', reason: answer.text })]);
  });

  it('survives an executor that throws and still audits', async () => {
    const deps = fakeDeps({
      bridge: {
        health: () => {
          throw new Error('boom\n    at x.ts:1');
        },
      },
    });
    const answer = await runCommand('status', { actor: manager, deps });
    expect(answer.ok).toBe(false);
    expect(answer.text).toContain('boom');
    expect(answer.text).not.toContain('x.ts');
    expect(deps.audits).toHaveLength(1);
  });

  it('says so when the audit log cannot be written', async () => {
    const deps = fakeDeps({ audit: async () => Promise.reject(new Error('disk full')) });
    const answer = await runCommand('status', { actor: manager, deps });
    expect(answer.ok).toBe(true);
    expect(answer.text).toMatch(/could not be written to the audit log/);
  });
});
