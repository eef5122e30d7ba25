// Training time and per-message classification time of the embedded NLU on the shipped flows (JSON on stdout).
//   npx tsx scripts/nlu-speed.ts [FLOWS.yaml]
import { readFileSync } from 'node:fs';
import { parseFlows, trainingSetOf } from '../src/bot/index.js';
import { trainEmbeddedNlu } from '../src/nlu/index.js';

const flows = parseFlows(readFileSync(process.argv[2] ?? 'config/flows.yaml', 'utf8'), 'flows.yaml');
const set = trainingSetOf(flows);
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
const nlu = await trainEmbeddedNlu(set);
const trainingMs = performance.now() - started;
// Messages unlike the examples: each example with a slip in one word, and with words of another one added.
const examples = Object.values(set.intents).flatMap((byLang) => Object.values(byLang).flat());
const messages = examples.map((e, i) => {
  const other = examples[(i * 7) % examples.length] ?? '';
  const slipped = e.replace(/([a-z])([a-z])/, '$2$1');
  return i % 2 ? slipped : `${slipped} ${other.split(' ').slice(0, 4).join(' ')}`;
});
for (const m of messages.slice(0, 50)) await nlu.parse(m);
const times: number[] = [];
for (const m of messages) {
  const t = performance.now();
  await nlu.parse(m);
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
const at = (q: number): number => Number((times[Math.min(times.length - 1, Math.floor(times.length * q))] ?? 0).toFixed(2));
console.log(
  JSON.stringify({
    examples: nlu.examples,
    training_ms: Math.round(trainingMs),
    messages: times.length,
    nlu_ms_p50: at(0.5),
    nlu_ms_p99: at(0.99),
    rss_growth_mb: Math.round((process.memoryUsage().rss - rssBefore) / 1e6),
  }),
);
