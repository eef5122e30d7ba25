import { describe, it, expect } from 'vitest';
import { FlowFileError, parseFlows } from '../../src/bot/index.js';
import { matchIntent } from '../../src/bot/match-intent.js';
import { extractAnswer } from '../../src/bot/run-step.js';

const head = `greeting: { text: Hi }
fallback: { text: Sorry }
`;

function refusal(text: string): FlowFileError {
  try {
    parseFlows(text, 'flows.yaml');
  } catch (e) {
    expect(e).toBeInstanceOf(FlowFileError);
    return e as FlowFileError;
  }
  throw new Error('expected the flow file to be refused');
}

describe('flows patterns run in linear time', () => {
  // With a backtracking engine this pattern took 3 s on 27 letters, doubling per letter (issue 27, Medium 1):
  // 40 letters never completed. `npx tsx bench/pattern-cost.ts` measures it.
  const flows = parseFlows(`${head}intents:\n  words:\n    patterns: ['^(\\w+\\s?)+$']\n    then: { reply: words }\n`, 'flows.yaml');

  it('matches an adversarial 40-letter message against ^(\\w+\\s?)+$ without freezing', () => {
    expect(matchIntent(flows, `${'a'.repeat(40)}!`)).toBeUndefined();
    expect(matchIntent(flows, `${'ab '.repeat(2000)}!`)).toBeUndefined();
  });

  it('still matches what the pattern describes, case- and accent-insensitively', () => {
    expect(matchIntent(flows, 'Où est ma commande')).toMatchObject({ name: 'words', words: 'Ou est ma commande', exact: true });
  });

  it('keeps a question pattern first group as the value, and JavaScript \\u escapes', () => {
    expect(extractAnswer('\\b([a-z]{2}-?\\d{5})\\b', 'my order is ab-12345 thanks')).toBe('ab-12345');
    expect(extractAnswer('\\border\\b', 'ORDER please')).toBe('ORDER');
    expect(extractAnswer('(x)?(\\d+)', 'n 42')).toBe('42');
    expect(extractAnswer('caf\\u0065 (\\w+)', 'CAFÉ noir')).toBe('noir');
    expect(extractAnswer('caf\\u{65} (\\w+)', 'cafe au lait')).toBe('au');
    expect(extractAnswer('\\d{5}', 'no digits here')).toBeUndefined();
  });

  it.each([
    ['a backreference', '(a)\\1', 'intents.x.patterns.0'],
    ['a lookahead', 'refund(?!ed)', 'intents.x.patterns.0'],
    ['a lookbehind', '(?<=order )\\d+', 'intents.x.patterns.0'],
  ])('refuses %s at load, naming the pattern and its place', (_what, pattern, path) => {
    const e = refusal(`${head}intents:\n  x:\n    patterns: ['${pattern}']\n    then: { reply: hi }\n`);
    expect(e.problems).toHaveLength(1);
    expect(e.problems[0]).toMatchObject({ path, line: 5 });
    expect(e.problems[0]?.message).toContain(JSON.stringify(pattern));
    expect(e.problems[0]?.message).toMatch(/linear time/);
    expect(e.message).toContain(path);
  });

  it("refuses a question's pattern RE2 cannot run, naming the question", () => {
    const e = refusal(
      `${head}questions:\n  order:\n    prompt: Which order?\n    reask: Which one?\n    pattern: '(\\d)\\1'\n    then: { reply: ok }\n`,
    );
    expect(e.problems[0]).toMatchObject({ path: 'questions.order.pattern' });
    expect(e.problems[0]?.message).toContain('"(\\\\d)\\\\1"');
  });
});
