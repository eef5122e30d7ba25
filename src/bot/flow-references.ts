// Checks a parsed flow file for what a schema cannot see: names that point nowhere, intent loops, unknown variables.
import type { Flows, Step } from './flow-schema.js';
import { templateVariables } from './fill-template.js';

export type FlowPath = (string | number)[];
export interface ReferenceProblem {
  path: FlowPath;
  message: string;
}

export const BUILTIN_VARIABLES = ['name', 'back', 'until', 'hours_status', 'hours_week', 'scale'] as const;

function checkStep(flows: Flows, step: Step, path: FlowPath, out: ReferenceProblem[]): void {
  if (step.menu !== undefined && !flows.menus[step.menu]) {
    out.push({ path: [...path, 'menu'], message: `no menu named "${step.menu}" under menus` });
  }
  if (step.ask !== undefined && !flows.questions[step.ask]) {
    out.push({ path: [...path, 'ask'], message: `no question named "${step.ask}" under questions` });
  }
  const languages = [flows.languages.default, ...flows.languages.supported];
  if (step.language !== undefined && !languages.includes(step.language)) {
    out.push({ path: [...path, 'language'], message: `language "${step.language}" is not declared (languages: ${languages.join(', ')})` });
  }
  if (step.intent !== undefined && !flows.intents[step.intent]) {
    out.push({ path: [...path, 'intent'], message: `no intent named "${step.intent}" under intents` });
  }
}

function checkIntentLoops(flows: Flows, out: ReferenceProblem[]): void {
  for (const start of Object.keys(flows.intents)) {
    const seen = new Set<string>([start]);
    let next = flows.intents[start]?.then?.intent;
    while (next !== undefined) {
      if (seen.has(next)) {
        out.push({
          path: ['intents', start, 'then', 'intent'],
          message: `intents lead to each other in a loop (${[...seen].join(' → ')} → ${next})`,
        });
        break;
      }
      seen.add(next);
      next = flows.intents[next]?.then?.intent;
    }
  }
}

const NOT_TEXT = new Set([
  'language',
  'supported',
  'default',
  'keywords',
  'phrases',
  'patterns',
  'pattern',
  'canned_response',
  'id',
  'title',
  'tags',
]);

function checkVariables(value: unknown, path: FlowPath, known: Set<string>, out: ReferenceProblem[]): void {
  if (typeof value === 'string') {
    for (const v of templateVariables(value)) {
      if (!known.has(v)) {
        out.push({ path, message: `unknown variable {${v}}; known: ${[...known].map((k) => `{${k}}`).join(', ')}` });
      }
    }
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => {
      checkVariables(item, [...path, i], known, out);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (!NOT_TEXT.has(k)) checkVariables(v, [...path, k], known, out);
    }
  }
}

export function checkReferences(flows: Flows): ReferenceProblem[] {
  const out: ReferenceProblem[] = [];
  for (const key of ['greeting', 'fallback'] as const) {
    const m = flows[key].menu;
    if (m !== undefined && !flows.menus[m]) out.push({ path: [key, 'menu'], message: `no menu named "${m}" under menus` });
  }
  for (const [menuName, menu] of Object.entries(flows.menus)) {
    menu.buttons.forEach((b, i) => {
      checkStep(flows, b.then, ['menus', menuName, 'buttons', i, 'then'], out);
    });
  }
  for (const [intentName, intent] of Object.entries(flows.intents)) {
    if (intent.then) checkStep(flows, intent.then, ['intents', intentName, 'then'], out);
  }
  for (const [qName, q] of Object.entries(flows.questions)) {
    checkStep(flows, q.then, ['questions', qName, 'then'], out);
    if (q.on_fail) checkStep(flows, q.on_fail, ['questions', qName, 'on_fail'], out);
  }
  for (const [nluName, ours] of Object.entries(flows.nlu.intents)) {
    if (!flows.intents[ours]) out.push({ path: ['nlu', 'intents', nluName], message: `no intent named "${ours}" under intents` });
  }
  flows.nlu.embedded.yielding.forEach((name, i) => {
    if (!flows.intents[name]) out.push({ path: ['nlu', 'embedded', 'yielding', i], message: `no intent named "${name}" under intents` });
  });
  checkIntentLoops(flows, out);
  const known = new Set<string>(BUILTIN_VARIABLES);
  for (const [qName, q] of Object.entries(flows.questions)) known.add(q.save_as ?? qName);
  checkVariables(flows, [], known, out);
  return out;
}
