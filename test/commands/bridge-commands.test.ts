import { terminalSafe } from '../../src/shared/terminal-safe.js';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/commands/run-command.js';
import { NotFoundError } from '../../src/engage/errors/index.js';
import { fakeDeps, manager } from './fake-deps.js';

const NOW = Date.parse('2026-11-23T10:00:00Z');

describe('handover', () => {
  it('shows the bridge and the service view for status', async () => {
    const deps = fakeDeps({
      bridge: { getOwner: async () => ({ owner: 'agents', sinceMs: NOW - 35 * 60_000, reason: 'asked for a human' }) },
      engage: {
        handover: { get: async () => ({ service: 'whatsapp', service_id: '1', owner: 'agents', date: { updated: NOW / 1000 - 3600 } }) },
      },
    });
    const answer = await runCommand('handover whatsapp/1', { actor: manager, deps });
    expect(answer.text).toBe(
      'whatsapp/1: the bridge: agents since 2026-11-23 09:25 UTC (35 min ago) (asked for a human); ' +
        'Engage: agents since 2026-11-23 09:00 UTC (1 h ago).',
    );
    expect(deps.calls.some((c) => c.port === 'bridge.setOwner')).toBe(false);
  });

  it('says a contact was never handed over', async () => {
    const deps = fakeDeps();
    const answer = await runCommand('handover web/v1 status', { actor: manager, deps });
    expect(answer.text).toBe('web/v1: the bridge has not seen this contact; Engage: agents, never handed over.');
  });

  it('keeps the bridge view when the service cannot be asked', async () => {
    const deps = fakeDeps({
      bridge: { getOwner: async () => ({ owner: 'bot' }) },
      engage: { handover: { get: async () => Promise.reject(new NotFoundError({ method: 'GET', path: '/x', status: 404 })) } },
    });
    const answer = await runCommand('handover web/v1', { actor: manager, deps });
    expect(answer.ok).toBe(false);
    expect(answer.text).toMatch(/^web\/v1: the bridge: bot\. Engage does not know web\/v1/);
  });

  it('changes the owner through the bridge with the actor', async () => {
    const deps = fakeDeps();
    const answer = await runCommand('handover whatsapp/1 agents', { actor: manager, deps });
    expect(deps.calls.find((c) => c.port === 'bridge.setOwner')?.args).toEqual(['whatsapp/1', 'agents', manager]);
    expect(answer).toMatchObject({ ok: true, text: 'whatsapp/1 now belongs to agents (was bot).' });
    expect(deps.calls.some((c) => c.port.startsWith('handover.'))).toBe(false);
  });

  it('says when nothing changed', async () => {
    const deps = fakeDeps({ bridge: { setOwner: async () => ({ from: 'bot', to: 'bot' }) } });
    const answer = await runCommand('handover whatsapp/1 bot', { actor: manager, deps });
    expect(answer.text).toBe('whatsapp/1 already belonged to bot: nothing changed.');
  });
});

describe('bot pause and resume', () => {
  it('pauses every contact when none is named', async () => {
    const deps = fakeDeps();
    const answer = await runCommand('bot pause', { actor: manager, deps });
    expect(deps.calls[0]).toEqual({ port: 'bridge.pauseBot', args: ['all', manager] });
    expect(answer.text).toBe('Bot paused for every contact.');
  });

  it('resumes one contact and shows the owner change', async () => {
    const deps = fakeDeps({ bridge: { resumeBot: async () => ({ changed: true, from: 'paused', to: 'bot' }) } });
    const answer = await runCommand('bot resume whatsapp/1', { actor: manager, deps });
    expect(deps.calls[0]).toEqual({ port: 'bridge.resumeBot', args: ['whatsapp/1', manager] });
    expect(answer.text).toBe('Bot resumed for whatsapp/1 (paused → bot).');
  });

  it('says when the bot already was so', async () => {
    const deps = fakeDeps({ bridge: { pauseBot: async () => ({ changed: false }) } });
    const answer = await runCommand('bot pause web/2', { actor: manager, deps });
    expect(answer.text).toBe('The bot was already paused for web/2: nothing changed.');
  });
});

describe('escalations', () => {
  it('lists open escalations oldest first with who, channel, reason and since when', async () => {
    const deps = fakeDeps({
      bridge: {
        openEscalations: async () => [
          { contactKey: 'web/v2', channel: 'web', reason: 'no match twice', sinceMs: NOW - 5 * 60_000 },
          { contactKey: 'whatsapp/1', name: 'Ann', channel: 'whatsapp', reason: 'asked for a human', sinceMs: NOW - 2 * 3_600_000 },
        ],
      },
    });
    const answer = await runCommand('escalations', { actor: manager, deps });
    expect(answer.text).toBe(
      [
        '2 open escalations:',
        '• Ann (whatsapp/1) on whatsapp: asked for a human, since 2026-11-23 08:00 UTC (2 h ago)',
        '• (web/v2) on web: no match twice, since 2026-11-23 09:55 UTC (5 min ago)',
      ].join('\n'),
    );
  });

  it('shows escape sequences and line breaks in a display name escaped, so they cannot clear the screen or fake a line', async () => {
    const name = 'Eve\u001b[2J\u001b[H\n• Mallory (web/9) on web: fake, since now\u202e';
    const deps = fakeDeps({
      bridge: {
        openEscalations: async () => [{ contactKey: 'web/1', name, channel: 'web', reason: 'asked\r\nfor a human', sinceMs: NOW }],
      },
    });
    const text = terminalSafe((await runCommand('escalations', { actor: manager, deps })).text);
    expect(text.split('\n')).toHaveLength(2);
    expect([...text].filter((c) => c !== '\n' && (c < ' ' || (c >= '\u007f' && c <= '\u009f') || c === '\u202e'))).toEqual([]);
    expect(text).toContain('Eve\\u{1b}[2J\\u{1b}[H\\u{a}• Mallory');
  });

  it('says when there are none', async () => {
    expect((await runCommand('escalations', { actor: manager, deps: fakeDeps() })).text).toBe('No open escalations.');
  });
});

describe('status', () => {
  it('shows lag, owners, budget and the last error', async () => {
    const deps = fakeDeps({
      bridge: {
        health: async () => ({
          ingestionLagMs: 2_500,
          conversationsByOwner: { bot: 4, agents: 2, paused: 1 },
          apiBudgetRemaining: 812,
          apiBudgetResetMs: NOW + 20 * 60_000,
          lastError: { atMs: NOW - 3 * 60_000, message: 'GET /mentions 503' },
          botPausedForAll: false,
        }),
      },
    });
    const answer = await runCommand('status', { actor: manager, deps });
    expect(answer.text).toBe(
      [
        'Bot: running',
        'Ingestion lag: 2 s',
        'Conversations: 4 bot, 2 agents, 1 paused',
        'API budget: 812 calls left, resets 2026-11-23 10:20 UTC (in 20 min)',
        'Last error: GET /mentions 503 at 2026-11-23 09:57 UTC (3 min ago)',
      ].join('\n'),
    );
  });
});
