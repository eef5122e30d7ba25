// Measures language detectors on a flow test file's first messages (those labelled with a language), short ones
// (under 20 letters) apart: tinyld, eld (small and large), NLP.js's own guesser, the embedded NLU's language scores.
//   npx tsx scripts/measure-language.ts TESTS.yaml [--json]
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { detectAll } from 'tinyld';
import { parseFlows, trainingSetOf } from '../src/bot/index.js';
import { trainEmbeddedNlu } from '../src/nlu/index.js';

const file = process.argv[2];
if (!file) throw new Error('usage: measure-language.ts TESTS.yaml [--json]');
const tests = parse(readFileSync(file, 'utf8')) as { messages?: Array<{ text: string; lang?: string }> };
const LANGS = ['en', 'nl', 'fr'];
const messages = (tests.messages ?? []).filter((m) => m.lang !== undefined);

const flows = parseFlows(readFileSync('config/flows.yaml', 'utf8'), 'flows.yaml');
const nlu = await trainEmbeddedNlu(trainingSetOf(flows));
const { eld: eldLarge } = await import('eld/large');
eldLarge.setLanguageSubset(LANGS);
const { eld: eldSmall } = await import('eld/small');
eldSmall.setLanguageSubset(LANGS);
// @ts-expect-error no types: NLP.js's trigram guesser (what `nlp.guessLanguage` uses)
const { Language } = await import('@nlpjs/language-min');
const nlpGuesser = new Language();

const best = (scores: Record<string, number>): string | undefined => {
  const [top, next] = Object.entries(scores).sort((a, b) => b[1] - a[1]);
  return top && top[1] > 0 && (!next || top[1] > next[1]) ? top[0] : undefined;
};

const candidates: Record<string, (text: string) => Promise<string | undefined>> = {
  tinyld: async (t) => detectAll(t, { only: LANGS })[0]?.lang,
  'eld-small': async (t) => eldSmall.detect(t).language || undefined,
  'eld-large': async (t) => eldLarge.detect(t).language || undefined,
  'nlpjs-guess': async (t) => nlpGuesser.guess(t, LANGS)[0]?.alpha2,
  'nlu-scores': async (t) => best({ ...((await nlu.parse(t))?.languages ?? {}) }),
};

const results: Record<string, Record<string, string>> = {};
for (const [name, guess] of Object.entries(candidates)) {
  const tally = { all: [0, 0], short: [0, 0] } as Record<string, [number, number]>;
  for (const m of messages) {
    const ok = (await guess(m.text)) === m.lang;
    const short = m.text.replace(/[^\p{L}]+/gu, '').length < 20;
    for (const k of short ? ['all', 'short'] : ['all']) {
      tally[k]![1] += 1;
      if (ok) tally[k]![0] += 1;
    }
  }
  results[name] = Object.fromEntries(
    Object.entries(tally).map(([k, [ok, n]]) => [k, `${ok}/${n} ${((100 * ok) / Math.max(1, n)).toFixed(1)}%`]),
  );
}
if (process.argv.includes('--json')) console.log(JSON.stringify(results, null, 2));
else for (const [name, r] of Object.entries(results)) console.log(`${name.padEnd(12)} all ${r.all}   under 20 letters ${r.short}`);
