// What a flows pattern costs on a hostile message (issue 27, Medium 1): `^(\w+\s?)+$` as an intent pattern against
// messages of n letters and a `!` (no match: a backtracking engine doubles its time per letter, 3 s at 27 letters).
// In one process, no network. Prints one JSON object: per length, the median and worst of `--runs` matches, in ms.
// Usage: npx tsx bench/pattern-cost.ts [--runs 50]
import { parseFlows } from '../src/bot/index.js';
import { matchIntent } from '../src/bot/match-intent.js';

const index = process.argv.indexOf('--runs');
const runs = index >= 0 && Number(process.argv[index + 1]) > 0 ? Number(process.argv[index + 1]) : 50;
const flows = parseFlows(
  "greeting: { text: Hi }\nfallback: { text: Sorry }\nintents:\n  words:\n    patterns: ['^(\\w+\\s?)+$']\n    then: { reply: words }\n",
  'bench.yaml',
);

const lengths = [27, 40, 1000, 4000];
const figures: Record<string, { medianMs: number; worstMs: number }> = {};
for (const n of lengths) {
  const message = `${'a'.repeat(n)}!`;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    if (matchIntent(flows, message) !== undefined) throw new Error('the adversarial message must not match');
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const round = (ms: number): number => Math.round(ms * 1000) / 1000;
  figures[`letters_${n}`] = { medianMs: round(times[Math.floor(times.length / 2)] ?? 0), worstMs: round(times[times.length - 1] ?? 0) };
}
process.stdout.write(`${JSON.stringify({ pattern: '^(\\w+\\s?)+$', runs, figures }, null, 2)}\n`);
