import { describe, it, expect } from 'vitest';
import { parseFlows, FlowFileError } from '../../src/bot/index.js';
import { flowText } from './bot-fixtures.js';

const minimal = `greeting:
  text: Hi
fallback:
  text: Sorry
`;

function problemsOf(text: string, file = 'flows.yaml'): FlowFileError {
  try {
    parseFlows(text, file);
  } catch (e) {
    expect(e).toBeInstanceOf(FlowFileError);
    return e as FlowFileError;
  }
  throw new Error('expected the flow file to be refused');
}

describe('flow file parsing', () => {
  it('accepts the shipped config/flows.yaml with every feature in it', () => {
    const flows = parseFlows(flowText, 'config/flows.yaml');
    expect(flows.menus.main?.canned_response).toBe('Main menu');
    expect(Object.keys(flows.intents)).toEqual(expect.arrayContaining(['opening_hours', 'order_status']));
    expect(flows.escalation.triggers.repeated_fallback.count).toBe(2);
    expect(flows.escalation.triggers.negative_sentiment.count).toBe(2);
    expect(flows.escalation.triggers.contact_tag.tags).toContain('vip');
  });

  it('fills defaults so a minimal file works, and reads JSON too', () => {
    const flows = parseFlows(minimal, 'flows.yaml');
    expect(flows.escalation.when_closed).toBe('queue');
    expect(flows.escalation.triggers.explicit_request.enabled).toBe(true);
    const json = parseFlows(JSON.stringify({ greeting: { text: 'Hi' }, fallback: { text: 'Sorry' } }), 'flows.json');
    expect(json.escalation.texts.handover).toBe(flows.escalation.texts.handover);
  });

  it.each([
    ['a missing greeting', 'fallback:\n  text: Sorry\n', 'greeting', 1, /expected object/i],
    ['an unknown key (a typo)', `${minimal}escalaton: {}\n`, 'escalaton', 5, /unrecognized key/i],
    [
      'a wrong type deep inside',
      `${minimal}escalation:\n  triggers:\n    repeated_fallback:\n      count: two\n`,
      'escalation.triggers.repeated_fallback.count',
      8,
      /number/,
    ],
    [
      'a broken regular expression',
      `${minimal}intents:\n  x:\n    patterns: ['(unclosed']\n    then: { reply: hi }\n`,
      'intents.x.patterns.0',
      7,
      /regular expression/,
    ],
    [
      'a step with two kinds',
      `${minimal}intents:\n  x:\n    keywords: [a]\n    then: { reply: hi, ask: q }\n`,
      'intents.x.then',
      8,
      /exactly one/,
    ],
    [
      'a menu that does not exist',
      `${minimal}intents:\n  x:\n    keywords: [a]\n    then:\n      menu: nowhere\n`,
      'intents.x.then.menu',
      9,
      /no menu named "nowhere"/,
    ],
    [
      'a question that does not exist',
      `${minimal}intents:\n  x:\n    keywords: [a]\n    then: { ask: order }\n`,
      'intents.x.then.ask',
      8,
      /no question named "order"/,
    ],
    [
      'intents that loop',
      `${minimal}intents:\n  a:\n    keywords: [a]\n    then: { intent: b }\n  b:\n    keywords: [b]\n    then: { intent: a }\n`,
      'intents.a.then.intent',
      8,
      /loop/,
    ],
    ['an unknown variable', `greeting:\n  text: Hi {nme}\nfallback:\n  text: Sorry\n`, 'greeting.text', 2, /unknown variable \{nme\}/],
    [
      'an intent with nothing to match',
      `${minimal}intents:\n  x:\n    then: { reply: hi }\n`,
      'intents.x',
      6,
      /keywords, phrases or patterns/,
    ],
    [
      'an unknown outcome text',
      `${minimal}escalation:\n  texts:\n    handoff: hello\n`,
      'escalation.texts.handoff',
      7,
      /unrecognized key/i,
    ],
  ])('refuses %s, naming the path and the line', (_label, text, path, line, message) => {
    const err = problemsOf(text);
    const problem = err.problems.find((p) => p.path === path);
    expect(problem, JSON.stringify(err.problems)).toBeDefined();
    expect(problem?.line).toBe(line);
    expect(problem?.message).toMatch(message);
    expect(err.message).toContain('flows.yaml');
    expect(err.message).toContain(`${path} (line ${line})`);
  });

  it('reports a YAML syntax error with its line', () => {
    const err = problemsOf('greeting:\n  text: "unclosed\nfallback: {}\n');
    expect(err.problems[0]?.line).toBeGreaterThanOrEqual(2);
    expect(err.message).toMatch(/^flows\.yaml: 1 problem/);
  });

  it('reads an unquoted canned response id and button id as text', () => {
    const flows = parseFlows(
      'greeting:\n  text: Hi\n  menu: main\nfallback:\n  text: Sorry\nmenus:\n  main:\n    canned_response: 501\n    text: Pick\n    buttons:\n      - id: 7\n        title: Hours\n        then: { reply: "9 to 5" }\n',
      'ids.yaml',
    );
    expect(flows.menus['main']?.canned_response).toBe('501');
    expect(flows.menus['main']?.buttons[0]?.id).toBe('7');
  });
});
