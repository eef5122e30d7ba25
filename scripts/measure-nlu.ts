// Measures the brain (and the embedded NLU when the code has one) on a flow test file, per category and language.
// A quick tool of the NLU work, until `engage-bridge test-flows` exists:
//   npx tsx scripts/measure-nlu.ts TESTS.yaml [--root DIR] [--flows FLOWS.yaml] [--failures] [--json]
// --root runs another checkout's brain (e.g. /work/main: the keyword baseline) on its own flows.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';

interface Expect {
  intent?: string;
  lang?: string;
  handover?: boolean;
  entities?: Record<string, string>;
  category?: string;
}
interface Message extends Expect {
  text: string;
}
interface Dialogue {
  name: string;
  lang?: string;
  turns: Array<Expect & { say: string }>;
}

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const file = args.find((a, i) => !a.startsWith('--') && !['--root', '--flows'].includes(args[i - 1] ?? ''));
if (!file) throw new Error('usage: measure-nlu.ts TESTS.yaml [--root DIR] [--flows FLOWS.yaml] [--failures] [--json]');
const root = resolve(opt('--root') ?? '.');
const tests = parse(readFileSync(file, 'utf8')) as { messages?: Message[]; dialogues?: Dialogue[] };

const bot = await import(`${root}/src/bot/index.ts`);
const nluMod = await import(`${root}/src/nlu/index.ts`);
const flows = bot.parseFlows(readFileSync(opt('--flows') ?? `${root}/config/flows.yaml`, 'utf8'), 'flows.yaml');
const guesser = await bot.loadLanguageGuesser();
let reader: { parse(t: string): Promise<unknown> } | undefined;
let trainingMs = 0;
if (nluMod.trainEmbeddedNlu && flows.nlu?.embedded?.enabled !== false) {
  const started = performance.now();
  reader = await nluMod.trainEmbeddedNlu(bot.trainingSetOf(flows));
  trainingMs = performance.now() - started;
}
const classifyMs: number[] = [];
const NOW = Date.parse('2026-11-23T09:00:00Z');
const hours = {
  schedule: {
    id: 'bh1',
    name: 'Support desk',
    timezone: 'Europe/Brussels',
    periods: [1, 2, 3, 4, 5].map((d) => ({ dayofweek: d, start: '0900', end: '1700' })),
    users: { total: 2, available: 1, busy: 1, unavailable: 0 },
  },
};

interface Outcome {
  intent: string;
  handover: boolean;
  lang: string;
  entities: Record<string, string>;
  reply: string;
}

class Conversation {
  state: unknown;
  transcript: Array<{ at: number; from: string; text: string }> = [];
  n = 0;
  async say(text: string): Promise<Outcome> {
    this.n += 1;
    const at = NOW + this.n * 60_000;
    this.transcript.push({ at, from: 'customer', text });
    const started = performance.now();
    const nlu = reader ? await reader.parse(text) : undefined;
    if (reader) classifyMs.push(performance.now() - started);
    const before = (this.state as { collected?: Record<string, string> } | undefined)?.collected ?? {};
    const d = bot.decide({
      flows,
      event: { kind: 'message', mentionId: `m${this.n}`, text, ...(nlu ? { nlu } : {}) },
      conversation: this.state,
      contact: { name: 'Ann', tags: [] },
      channel: 'whatsapp',
      now: at,
      hours,
      transcript: this.transcript,
      languageGuesser: guesser,
    });
    this.state = d.state;
    const actions = d.actions as Array<{ type: string; reason?: string; packet?: { intent?: string }; text?: string }>;
    const esc = actions.find((a) => a.type === 'escalate' || a.type === 'queue-escalation');
    const cancelled = actions.some((a) => a.type === 'cancel-escalation');
    const st = d.state as { lastIntent?: string; language?: string; collected?: Record<string, string> };
    const reason = esc?.reason ?? (esc as { packet?: { reason?: string } } | undefined)?.packet?.reason;
    let intent = 'none';
    if (cancelled) intent = 'cancel';
    else if (reason === 'explicit_request' || reason === 'quick_reply') intent = 'human';
    else if (reason === 'always_human') intent = st.lastIntent ?? 'none';
    else if (st.lastIntent && st.lastIntent !== (this.lastIntent ?? undefined)) intent = st.lastIntent;
    else if (reason === 'order_status' || reason === 'order_number') intent = 'order_status';
    this.lastIntent = st.lastIntent;
    const entities: Record<string, string> = {};
    for (const [k, v] of Object.entries(st.collected ?? {})) if (before[k] !== v) entities[k] = v;
    const reply = actions
      .filter((a) => a.type === 'reply')
      .map((a) => a.text)
      .join(' | ');
    for (const a of actions) if (a.type === 'reply') this.transcript.push({ at, from: 'bot', text: a.text ?? '' });
    return { intent, handover: esc !== undefined, lang: st.language ?? '?', entities, reply };
  }
  lastIntent: string | undefined;
}

const norm = (v: string): string => v.toUpperCase().replace(/-/g, '');
const defaultHandover = (e: Expect): boolean =>
  e.intent === 'human' || e.intent === 'refund' || (e.intent === 'order_status' && Object.keys(e.entities ?? {}).length > 0);

const tally = new Map<string, { ok: number; n: number }>();
const count = (key: string, ok: boolean): void => {
  const t = tally.get(key) ?? { ok: 0, n: 0 };
  t.n += 1;
  if (ok) t.ok += 1;
  tally.set(key, t);
};
const failures: string[] = [];
let personTp = 0;
let personPredicted = 0;
let personLabelled = 0;

function check(e: Expect, o: Outcome, text: string, where: string, lang: string | undefined, first: boolean): boolean {
  let all = true;
  const letters = text.replace(/[^\p{L}]+/gu, '').length;
  if (e.intent !== undefined) {
    const ok = o.intent === e.intent;
    if (first) {
      count('intent', ok);
      count(`intent/${e.category ?? '?'}`, ok);
      count(`intent/lang:${lang}`, ok);
    }
    if (!ok) {
      all = false;
      failures.push(`${where} intent ${o.intent} ≠ ${e.intent}: ${text}`);
    }
    if (first || e.intent === 'human') {
      if (e.intent === 'human') personLabelled += 1;
      if (o.intent === 'human') personPredicted += 1;
      if (o.intent === 'human' && e.intent === 'human') personTp += 1;
    }
  }
  const handover = e.handover ?? (e.intent !== undefined ? defaultHandover(e) : undefined);
  if (handover !== undefined) {
    const ok = o.handover === handover;
    count('handover', ok);
    if (!ok) {
      all = false;
      failures.push(`${where} handover ${o.handover} ≠ ${handover}: ${text}`);
    }
  }
  if (lang !== undefined) {
    const ok = o.lang === lang;
    count('language', ok);
    count(`language/${lang}`, ok);
    if (letters < 20) count('language/short<20', ok);
    if (!ok) {
      all = false;
      failures.push(`${where} language ${o.lang} ≠ ${lang}: ${text}`);
    }
  }
  for (const [k, v] of Object.entries(e.entities ?? {})) {
    const ok = o.entities[k] !== undefined && norm(o.entities[k]!) === norm(v);
    count('entities', ok);
    if (!ok) {
      all = false;
      failures.push(`${where} entity ${k}=${o.entities[k]} ≠ ${v}: ${text}`);
    }
  }
  return all;
}

for (const [i, m] of (tests.messages ?? []).entries()) {
  const o = await new Conversation().say(m.text);
  check(m, o, m.text, `[m${i} ${m.category} ${m.lang}]`, m.lang, true);
  if (args.includes('--replies')) console.log(`${m.text} → ${o.reply}`);
}
for (const d of tests.dialogues ?? []) {
  const c = new Conversation();
  let ok = true;
  for (const [j, t] of d.turns.entries()) {
    const o = await c.say(t.say);
    ok = check(t, o, t.say, `[d ${d.name} #${j + 1}]`, t.lang ?? d.lang, false) && ok;
  }
  count('dialogues', ok);
}

const p99 = (xs: number[]): number =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]! : 0;
const table: Record<string, string> = {};
for (const [k, t] of [...tally.entries()].sort(([a], [b]) => a.localeCompare(b)))
  table[k] = `${t.ok}/${t.n} ${((100 * t.ok) / t.n).toFixed(1)}%`;
table.person_recall = `${personTp}/${personLabelled} ${((100 * personTp) / Math.max(1, personLabelled)).toFixed(1)}%`;
table.person_precision = `${personTp}/${personPredicted} ${((100 * personTp) / Math.max(1, personPredicted)).toFixed(1)}%`;
table.training_ms = trainingMs.toFixed(0);
table.classify_ms_p99 = p99(classifyMs).toFixed(2);
if (args.includes('--json')) console.log(JSON.stringify(table, null, 2));
else for (const [k, v] of Object.entries(table)) console.log(`${k.padEnd(28)} ${v}`);
if (args.includes('--failures')) for (const f of failures) console.log(f);
