import { describe, it, expect } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger, refreshLogSecrets, scrubSecrets } from '../../src/log.js';

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

describe('logging', () => {
  it('redacts secret fields by name wherever they sit', () => {
    const { lines, destination } = capture();
    const log = createLogger({ level: 'info', pretty: false, destination });
    log.info({ token: 'abc', req: { headers: { authorization: 'Bearer abc' } }, client: { accessToken: 'abc' } }, 'call');
    expect(lines.join('')).not.toContain('abc');
    expect(lines.join('')).toContain('[redacted]');
  });

  it('scrubs a known secret value even inside a message text', () => {
    const { lines, destination } = capture();
    const log = createLogger({ level: 'info', pretty: false, destination, secrets: ['s3cr3t-token'] });
    log.warn({ url: 'https://x/y?access_token=zzz&a=1' }, 'failed with s3cr3t-token in it');
    const text = lines.join('');
    expect(text).not.toContain('s3cr3t-token');
    expect(text).not.toContain('zzz');
  });

  it('scrubs a secret written percent-encoded (either case) or in base64 (standard or URL-safe, with or without padding)', () => {
    const secret = 'a+b/c=d e?~0123456789abcdef0123456789';
    const enc = encodeURIComponent(secret);
    const b64 = Buffer.from(secret).toString('base64');
    const forms = [
      secret,
      enc,
      enc.toLowerCase(),
      encodeURI(secret),
      b64,
      b64.replace(/=+$/, ''),
      Buffer.from(secret).toString('base64url'),
    ];
    for (const form of forms)
      expect(scrubSecrets(`path /webhooks/engage/${form} failed`, [secret])).toBe('path /webhooks/engage/[redacted] failed');
  });

  it('removes access_token parameters from any text', () => {
    expect(scrubSecrets('GET /a?access_token=abc&b=2', [])).toBe('GET /a?access_token=[redacted]&b=2');
  });
});

describe('the log scrubber', () => {
  function capture2() {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    return { lines, destination };
  }

  it('scrubs secrets shorter than four characters too', () => {
    const { lines, destination } = capture2();
    const log = createLogger({ level: 'info', pretty: false, destination, secrets: ['Zq7'] });
    log.warn({ detail: 'pin Zq7 used' }, 'the secret Zq7 leaked');
    expect(lines.join('')).not.toContain('Zq7');
  });

  it('scrubs a secret with quotes or backslashes as it appears inside the JSON line', () => {
    const { lines, destination } = capture2();
    const secret = 'ab"cd\\ef';
    const log = createLogger({ level: 'info', pretty: false, destination, secrets: [secret] });
    log.warn({ detail: `value ${secret}` }, 'leak');
    const text = lines.join('');
    expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(text).toContain('[redacted]');
  });

  it('scrubs the new secrets after a reload (SIGHUP), and still the old ones', () => {
    const { lines, destination } = capture2();
    const log = createLogger({ level: 'info', pretty: false, destination, secrets: ['old-token-1'] });
    refreshLogSecrets(log, ['new-token-2']);
    log.child({ component: 'engage' }).warn({}, 'tried new-token-2 after old-token-1');
    const text = lines.join('');
    expect(text).not.toContain('new-token-2');
    expect(text).not.toContain('old-token-1');
  });
});
