import { describe, it, expect } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/log.js';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, destination };
}

describe('customer ids in log lines', () => {
  it('are pseudonymised by a keyed hash, the same id the same pseudonym, phone numbers included', () => {
    const { lines, destination } = capture();
    const log = createLogger({ level: 'info', pretty: false, destination, pseudonymKey: 'deployment-key' });
    log.warn({ contact: 'whatsapp/+32470000031', effect: 'reply:whatsapp/+32470000031:3' }, 'effect delayed for +32470000031');
    log.info({ contact: 'whatsapp/+32470000031', time2: 1764197000000 }, 'again');
    const text = lines.join('');
    expect(text).not.toContain('32470000031');
    const pseudonyms = text.match(/c-[0-9a-f]{10}/g) ?? [];
    expect(pseudonyms.length).toBeGreaterThanOrEqual(4);
    expect(new Set(pseudonyms).size).toBe(1);
    expect(text).toContain('1764197000000');
  });

  it('cover a phone id written without + (the store key whatsapp:32…, a service id field) and a grouped phone', () => {
    const { lines, destination } = capture();
    const log = createLogger({ level: 'info', pretty: false, destination, pseudonymKey: 'deployment-key' });
    log.info({ contact: 'whatsapp:32470123456', serviceId: '32470123456', path: '/inbox/handover/twilio/32470123456' }, 'x');
    log.info({}, 'call +32 470 12 34 56 or +32.470.12.34.56');
    const text = lines.join('');
    for (const form of ['32470123456', '470 12 34 56', '470.12.34.56']) expect(text).not.toContain(form);
    expect(text).toContain('"contact":"whatsapp:c-');
    expect(text).toContain('twilio/c-');
  });

  it('differ between deployment keys, and are written in clear when no key is given (the debug setting)', () => {
    const a = capture();
    const b = capture();
    const clear = capture();
    createLogger({ level: 'info', pretty: false, destination: a.destination, pseudonymKey: 'one' }).info({ contact: 'web/v-77' }, 'x');
    createLogger({ level: 'info', pretty: false, destination: b.destination, pseudonymKey: 'two' }).info({ contact: 'web/v-77' }, 'x');
    createLogger({ level: 'info', pretty: false, destination: clear.destination }).info({ contact: 'web/v-77' }, 'x');
    expect(a.lines.join('')).not.toBe(b.lines.join(''));
    expect(a.lines.join('')).not.toContain('v-77');
    expect(clear.lines.join('')).toContain('web/v-77');
  });
});
