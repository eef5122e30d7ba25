import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeLogOptions } from '../../src/cli/start-command.js';
import { createLogger } from '../../src/log.js';
import { botMessagesTo, callsOf, startHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

const PHONE = '32470123456';
/** Every way the number may be written: with or without `+`, grouped with spaces, dots or dashes, national part only. */
const FORMS = [
  PHONE,
  `+${PHONE}`,
  '+32 470 12 34 56',
  '32 470 12 34 56',
  '+32.470.12.34.56',
  '+32-470-12-34-56',
  '470123456',
  '0470123456',
];

/** A full conversation from a WhatsApp contact whose id is the bare phone number, escalation included; returns the log. */
async function conversationLog(env: Record<string, string>): Promise<string> {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  h = await startHarness({
    env: { LOG_LEVEL: 'debug', ...env },
    logger: (config) => createLogger({ ...bridgeLogOptions(config), pretty: false, destination }),
  });
  await h.say(PHONE, 'hello, my number is +32 470 12 34 56', 'whatsapp', 'Ann');
  await h.settle();
  await h.say(PHONE, 'where is order AB-12345?');
  await h.settle();
  await h.say(PHONE, 'I want to talk to a human, call me on 0470123456');
  await h.settle();
  expect(botMessagesTo(h, PHONE).length).toBeGreaterThanOrEqual(2);
  expect(callsOf(h, 'POST', `/inbox/handover/whatsapp/${PHONE}`)).toHaveLength(1);
  await h.stop();
  h = undefined;
  return lines.join('');
}

describe('a log of a full e2e run', () => {
  it('contains no phone number in any form when customer ids are pseudonymised (the default)', async () => {
    const log = await conversationLog({});
    expect(log.length).toBeGreaterThan(1000);
    expect(log).toMatch(/c-[0-9a-f]{10}/);
    for (const form of FORMS) expect(log).not.toContain(form);
  });

  it('contains the phone number with LOG_CUSTOMER_IDS=clear (debugging)', async () => {
    const log = await conversationLog({ LOG_CUSTOMER_IDS: 'clear' });
    expect(log).toContain(PHONE);
  });
});
