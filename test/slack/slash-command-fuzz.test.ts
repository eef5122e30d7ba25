import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realRunner } from './real-command-runner.js';
import { FakeSlack, MANAGER, STRANGER, postSigned, slashCommand, startHarness, type Harness } from './slack-test-kit.js';

const RUNS = 2000;
const BATCH = 8;

// Texts a person (or a cat on the keyboard) could type: verbs of the grammar mixed with noise, quotes,
// references, unicode, control characters and very long strings.
const words = fc.oneof(
  fc.constantFrom('help', 'status', 'tag', 'contact', 'set', 'hours', 'handover', 'bot', 'pause', 'resume', 'escalations', 'fail', 'boom'),
  fc.constantFrom(
    '2001/9001',
    'whatsapp/32470000001',
    '+vip',
    '-old',
    'company="Acme NV"',
    'attr.x=',
    '"',
    "'",
    '<@U1>',
    '&amp;',
    '*bold*',
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);
const commandText = fc.oneof(
  fc.array(words, { maxLength: 8 }).map((parts) => parts.join(' ')),
  // any UTF-16 unit, lone surrogates and control characters included (cheaper than the 'binary' unit's table)
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 200 }),
  fc.string({ minLength: 2000, maxLength: 5000 }),
);

describe('the slash command with the real executor under random input', () => {
  let fake: FakeSlack;
  let h: Harness;

  beforeAll(async () => {
    fake = new FakeSlack();
    await fake.start();
    h = await startHarness(fake, { commands: realRunner([MANAGER]).runner });
  });
  afterAll(async () => {
    await h.app.stop();
    await fake.stop();
  });

  it(`answers ${RUNS} random signed commands with 200 and an ephemeral message, and keeps serving`, async () => {
    let answered = 0;
    const one = async (text: string, asManager: boolean): Promise<void> => {
      const res = await postSigned(h.port, slashCommand(fake, asManager ? MANAGER : STRANGER, text));
      expect(res.status).toBe(200);
      const answer = JSON.parse(res.text) as { response_type?: unknown; text?: unknown };
      expect(answer.response_type).toBe('ephemeral');
      expect(typeof answer.text).toBe('string');
      expect((answer.text as string).length).toBeGreaterThan(0);
      answered += 1;
    };
    // batches of concurrent requests: closer to real traffic, and the suite stays fast on two busy cores
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(commandText, fc.boolean()), { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        await Promise.all(batch.map(([text, asManager]) => one(text, asManager)));
      }),
      { numRuns: RUNS / BATCH },
    );
    expect(answered).toBe(RUNS);
    const after = await postSigned(h.port, slashCommand(fake, MANAGER, 'help'));
    expect(JSON.parse(after.text)).toMatchObject({ response_type: 'ephemeral', text: expect.stringContaining('escalations') });
    expect(h.logger.lines.filter((line) => line.level === 'error')).toEqual([]);
  }, 180_000);
});
