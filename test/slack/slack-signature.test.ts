import { describe, it, expect } from 'vitest';
import { verifySlackRequest } from '@slack/bolt';
import { computeSlackSignature, verifySlackSignature } from '../../src/slack/slack-signature.js';

// Slack's published example (docs.slack.dev, "Verifying requests from Slack").
const secret = '8f742231b10e8888abcd99yyyzzz85a5';
const timestamp = '1531420618';
const body =
  'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar' +
  '&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=' +
  '&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN' +
  '&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
const expected = 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503';

describe('Slack request signatures', () => {
  it('computes the signature of Slack published example', () => {
    expect(computeSlackSignature(secret, timestamp, body)).toBe(expected);
  });

  it('accepts the published example with the clock frozen at its timestamp', () => {
    const verdict = verifySlackSignature({
      signingSecret: secret,
      timestamp,
      rawBody: body,
      signature: expected,
      nowSeconds: 1531420618 + 10,
    });
    expect(verdict).toEqual({ ok: true });
  });

  it('agrees with Bolt verifier on the published example under the same frozen clock', () => {
    expect(() =>
      verifySlackRequest({
        signingSecret: secret,
        body,
        headers: { 'x-slack-signature': expected, 'x-slack-request-timestamp': Number(timestamp) },
        nowMilliseconds: 1531420618 * 1000,
      }),
    ).not.toThrow();
  });

  it('rejects the published example once it is more than five minutes old', () => {
    const verdict = verifySlackSignature({
      signingSecret: secret,
      timestamp,
      rawBody: body,
      signature: expected,
      nowSeconds: 1531420618 + 301,
    });
    expect(verdict).toEqual({ ok: false, reason: 'stale' });
  });

  it('rejects a body changed by one character', () => {
    const verdict = verifySlackSignature({
      signingSecret: secret,
      timestamp,
      rawBody: body.replace('foobar', 'foobaz'),
      signature: expected,
      nowSeconds: 1531420618,
    });
    expect(verdict).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('rejects a signature of the wrong length and a timestamp that is not a number', () => {
    expect(verifySlackSignature({ signingSecret: secret, timestamp, rawBody: body, signature: 'v0=abc', nowSeconds: 1531420618 })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(
      verifySlackSignature({ signingSecret: secret, timestamp: '15314x', rawBody: body, signature: expected, nowSeconds: 1531420618 }),
    ).toEqual({ ok: false, reason: 'malformed' });
  });
});
