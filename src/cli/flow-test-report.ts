// The text `engage-bridge test-flows` prints: the headline figures against the thresholds, the breakdowns, the
// confusions and every failure, so a team sees what a change to its flows did before deploying it.
import type { FlowTestScore, Share } from '../bot/flow-test-score.js';
import type { FlowTestThresholds } from '../bot/flow-test-file.js';

const pct = (s: Share): string => `${(s.share * 100).toFixed(1).padStart(5)} %  (${s.right}/${s.of})`;

const HEADLINES: Array<[keyof FlowTestThresholds, string]> = [
  ['intent', 'intent (first messages)'],
  ['person_recall', 'requests for a person handed over'],
  ['person_precision', 'hand-overs as a request that were one'],
  ['language', 'reply language'],
  ['entities', 'entity values used'],
  ['dialogues', 'dialogues right throughout'],
];

function table(title: string, rows: Record<string, Share>): string[] {
  const names = Object.keys(rows).sort();
  if (names.length === 0) return [];
  const width = Math.max(...names.map((n) => n.length));
  return ['', `${title}:`, ...names.map((n) => `  ${n.padEnd(width)}  ${pct(rows[n]!)}`)];
}

export function renderFlowTestReport(
  score: FlowTestScore,
  thresholds: FlowTestThresholds,
  heading: string,
  overlap: readonly string[],
): string {
  const lines = [heading, ''];
  for (const [key, label] of HEADLINES) {
    const min = thresholds[key];
    const s = score[key];
    const verdict = min === undefined ? '' : s.share >= min ? `  ≥ ${min} ok` : `  < ${min} BELOW`;
    lines.push(`  ${label.padEnd(40)} ${pct(s)}${verdict}`);
  }
  lines.push(`  ${'reply language, messages under 20 letters'.padEnd(40)} ${pct(score.language_short)}`);
  lines.push(...table('Turns right, by expected intent', score.byIntent));
  lines.push(...table('First messages right, by language', score.byLanguage));
  lines.push(...table('First messages right, by category', score.byCategory));
  if (score.confusion.length > 0) {
    lines.push('', 'Confusions (expected → understood):');
    for (const c of score.confusion) lines.push(`  ${c.expected} → ${c.got}: ${c.count}`);
  }
  if (score.failures.length > 0) {
    lines.push('', `Failures (${score.failures.length}):`);
    for (const f of score.failures)
      lines.push(`  ${f.source === 'message' ? '' : `[${f.source}] `}${JSON.stringify(f.text)}: ${f.problems.join('; ')}`);
  }
  if (overlap.length > 0) {
    lines.push('', `Not held out: ${overlap.length} test sentence(s) are also examples the NLU trains on:`);
    for (const s of overlap) lines.push(`  ${JSON.stringify(s)}`);
  }
  lines.push('', score.below.length === 0 ? 'All thresholds met.' : `Below threshold: ${score.below.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
