import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/commands/parse-command.js';
import { runCommand } from '../../src/commands/run-command.js';
import type { SurveyAnswerView } from '../../src/commands/ports.js';
import { fakeDeps } from './fake-deps.js';

const manager = { id: 'UMANAGER', transport: 'slack' as const };
const at = Date.parse('2026-11-20T10:00:00Z');
const answer = (score: number, channel: string, reason: string, kind: 'csat' | 'nps' = 'csat'): SurveyAnswerView => ({
  at,
  contactKey: 'whatsapp/1',
  kind,
  score,
  channel,
  reason,
});

describe('the csat command', () => {
  it('reports responses, average and the distribution per channel and per escalation reason', async () => {
    let asked = 0;
    const deps = fakeDeps({
      now: new Date('2026-11-23T10:00:00Z'),
      bridge: {
        surveyAnswers: async (since: number) => {
          asked = since;
          return [answer(5, 'whatsapp', 'explicit_request'), answer(3, 'web', 'order_status'), answer(4, 'whatsapp', 'order_status')];
        },
      },
    });
    const res = await runCommand('csat 7', { actor: manager, deps });
    expect(asked).toBe(Date.parse('2026-11-16T10:00:00Z'));
    expect(res.text.split('\n')).toEqual([
      'Survey answers in the last 7 days:',
      'CSAT (1–5): 3 responses, average 4.00; scores 5×1 4×1 3×1',
      'By channel:',
      '  whatsapp: 2, average 4.50 (5×1 4×1)',
      '  web: 1, average 3.00 (3×1)',
      'By escalation reason:',
      '  order_status: 2, average 3.50 (4×1 3×1)',
      '  explicit_request: 1, average 5.00 (5×1)',
    ]);
  });

  it('defaults to 30 days, says when there is nothing, and refuses a bad number of days', async () => {
    expect(parseCommand('csat')).toMatchObject({ ok: true, command: { name: 'csat', days: 30 } });
    expect(parseCommand('csat 0').ok).toBe(false);
    expect(parseCommand('csat week').ok).toBe(false);
    expect(parseCommand('csat 1 2').ok).toBe(false);
    const res = await runCommand('csat', { actor: manager, deps: fakeDeps() });
    expect(res.text).toBe('No survey answers in the last 30 days.');
  });

  it('scores NPS answers with promoters and detractors', async () => {
    const deps = fakeDeps({
      bridge: { surveyAnswers: async () => [answer(10, 'web', 'x', 'nps'), answer(9, 'web', 'x', 'nps'), answer(3, 'web', 'x', 'nps')] },
    });
    const res = await runCommand('csat', { actor: manager, deps });
    expect(res.text).toContain('NPS 33 (2 promoters, 1 detractors)');
  });
});
