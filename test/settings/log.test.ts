import { describe, it, expect } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger, scrubSecrets } from '../../src/log.js';

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

  it('removes access_token parameters from any text', () => {
    expect(scrubSecrets('GET /a?access_token=abc&b=2', [])).toBe('GET /a?access_token=[redacted]&b=2');
  });
});
