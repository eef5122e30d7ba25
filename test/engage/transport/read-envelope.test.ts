import { describe, expect, it } from 'vitest';
import { envelopeSchema } from '../../../src/engage/schemas/envelope.js';
import { envelopeFailureStatus, isEnvelope, readEnvelope } from '../../../src/engage/transport/read-envelope.js';

const bodies: unknown[] = [
  { meta: { code: 200 }, response: { id: 1 } },
  { response: null },
  { meta: { code: 500, error_type: 'x', error_message: 'y' } },
  { meta: { code: 200, messages: [{ type: 'warning', text: 'old version' }, {}], etag: 'e1', extra: 1 }, response: [] },
  {},
  { meta: null, response: 1 },
  { meta: [], response: 1 },
  { meta: { code: '200' }, response: 1 },
  { meta: { etag: 5 }, response: 1 },
  { meta: { error_type: 1 } },
  { meta: { error_message: null } },
  { meta: { messages: {} }, response: 1 },
  { meta: { messages: [null] }, response: 1 },
  { meta: { messages: [[]] }, response: 1 },
  { meta: { messages: [{ text: 3 }] }, response: 1 },
  { meta: { messages: [{ type: false }] }, response: 1 },
  // What JSON.parse makes of a number out of range: Infinity, which zod's number refuses.
  JSON.parse('{"meta":{"code":1e999},"response":{"id":1}}'),
  JSON.parse('{"meta":{"code":-1e999},"response":{"id":1}}'),
  [],
  [{ meta: {}, response: 1 }],
  null,
  'text',
  42,
];

describe('readEnvelope', () => {
  it('takes exactly the bodies the envelope schema takes', () => {
    for (const body of bodies) expect([body, isEnvelope(body)]).toEqual([body, envelopeSchema.safeParse(body).success]);
  });

  it('reads an envelope with a response, or a failure in meta.code without one; anything else is named', () => {
    expect(readEnvelope('{"meta":{"code":200},"response":{"id":1}}')).toEqual({
      ok: true,
      envelope: { meta: { code: 200 }, response: { id: 1 } },
    });
    expect(readEnvelope('{"meta":{"code":404,"error_type":"not_found"}}')).toMatchObject({ ok: true });
    expect(readEnvelope('{"meta":{"code":200}}')).toEqual({
      ok: false,
      problem: expect.stringMatching(/not an envelope/),
      unreadable: false,
    });
    expect(readEnvelope('{"meta":{"code":"two hundred"},"response":1}')).toMatchObject({ ok: false, unreadable: false });
    expect(readEnvelope('<html>')).toMatchObject({ ok: false, unreadable: true });
  });

  it('reads meta.code written as a numeric string as that number (issue 26: a looser service)', () => {
    expect(readEnvelope('{"meta":{"code":"200"},"response":1}')).toMatchObject({ ok: true });
    const failure = readEnvelope('{"meta":{"code":"404","error_type":"not_found"}}');
    expect(failure.ok && envelopeFailureStatus(failure.envelope)).toBe(404);
    expect(readEnvelope('<html>')).toMatchObject({ ok: false, unreadable: true });
  });
});
