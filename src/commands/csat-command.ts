import type { CommandSpec } from './command-types.js';
import { describeFailure } from './describe-failure.js';
import type { SurveyAnswerView } from './ports.js';

const DEFAULT_DAYS = 30;
const MAX_DAYS = 3650;
const DAY_MS = 86_400_000;

const avg = (xs: readonly SurveyAnswerView[]): string => (xs.reduce((a, x) => a + x.score, 0) / xs.length).toFixed(2);

/** "5×3 4×1": how many answers gave each score, highest first. */
function distribution(xs: readonly SurveyAnswerView[]): string {
  const counts = new Map<number, number>();
  for (const x of xs) counts.set(x.score, (counts.get(x.score) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[0] - a[0])
    .map(([score, n]) => `${score}×${n}`)
    .join(' ');
}

function group(xs: readonly SurveyAnswerView[], by: (x: SurveyAnswerView) => string): string[] {
  const groups = new Map<string, SurveyAnswerView[]>();
  for (const x of xs) groups.set(by(x), [...(groups.get(by(x)) ?? []), x]);
  return [...groups.entries()]
    .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
    .map(([name, g]) => `  ${name}: ${g.length}, average ${avg(g)} (${distribution(g)})`);
}

function report(kind: 'csat' | 'nps', xs: readonly SurveyAnswerView[]): string[] {
  const title = kind === 'csat' ? 'CSAT (1–5)' : 'NPS (0–10)';
  const lines = [`${title}: ${xs.length} response${xs.length === 1 ? '' : 's'}, average ${avg(xs)}; scores ${distribution(xs)}`];
  if (kind === 'nps') {
    const promoters = xs.filter((x) => x.score >= 9).length;
    const detractors = xs.filter((x) => x.score <= 6).length;
    lines.push(`  NPS ${Math.round(((promoters - detractors) / xs.length) * 100)} (${promoters} promoters, ${detractors} detractors)`);
  }
  return [...lines, 'By channel:', ...group(xs, (x) => x.channel), 'By escalation reason:', ...group(xs, (x) => x.reason)];
}

export const csatCommand: CommandSpec<'csat'> = {
  name: 'csat',
  usage: ['csat [days]'],
  summary: 'customer satisfaction answers of the last days (default 30): responses, average, distribution per channel and reason',
  examples: ['csat', 'csat 7'],
  parse(args) {
    if (args.length > 1) return { ok: false, error: `csat takes at most one argument, the number of days (got "${args.join(' ')}")` };
    const [first] = args;
    if (first === undefined) return { ok: true, command: { name: 'csat', days: DEFAULT_DAYS } };
    if (!/^\d{1,4}$/.test(first) || Number(first) < 1 || Number(first) > MAX_DAYS) {
      return { ok: false, error: `days is a whole number from 1 to ${MAX_DAYS} (got "${first}")` };
    }
    return { ok: true, command: { name: 'csat', days: Number(first) } };
  },
  subject: (c) => `survey answers of ${c.days} days`,
  async run(c, { deps }) {
    try {
      const since = deps.now().getTime() - c.days * DAY_MS;
      const answers = await deps.bridge.surveyAnswers(since);
      const period = `the last ${c.days} day${c.days === 1 ? '' : 's'}`;
      if (answers.length === 0) return { ok: true, text: `No survey answers in ${period}.` };
      const lines = [`Survey answers in ${period}:`];
      for (const kind of ['csat', 'nps'] as const) {
        const xs = answers.filter((a) => a.kind === kind);
        if (xs.length > 0) lines.push(...report(kind, xs));
      }
      return { ok: true, text: lines.join('\n') };
    } catch (error) {
      return { ok: false, text: describeFailure(error, 'the survey answers') };
    }
  },
};
