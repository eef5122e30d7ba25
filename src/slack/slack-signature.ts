import { createHmac, timingSafeEqual } from 'node:crypto';

/** Slack rejects requests older than this; so do we. */
export const MAX_REQUEST_AGE_SECONDS = 5 * 60;

/** `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{rawBody}` keyed with the signing secret. */
export function computeSlackSignature(signingSecret: string, timestamp: string | number, rawBody: string): string {
  const hmac = createHmac('sha256', signingSecret);
  hmac.update(`v0:${timestamp}:${rawBody}`);
  return `v0=${hmac.digest('hex')}`;
}

export interface SignedRequest {
  signingSecret: string;
  timestamp: string;
  rawBody: string;
  signature: string;
  /** epoch seconds; injected so the published example can be checked with a frozen clock */
  nowSeconds: number;
}

export type SignatureVerdict = { ok: true } | { ok: false; reason: 'stale' | 'malformed' | 'mismatch' };

export function verifySlackSignature(request: SignedRequest): SignatureVerdict {
  if (!/^\d{1,12}$/.test(request.timestamp)) return { ok: false, reason: 'malformed' };
  const age = Math.abs(request.nowSeconds - Number(request.timestamp));
  if (age > MAX_REQUEST_AGE_SECONDS) return { ok: false, reason: 'stale' };
  const expected = Buffer.from(computeSlackSignature(request.signingSecret, request.timestamp, request.rawBody));
  const given = Buffer.from(request.signature);
  // timingSafeEqual throws on unequal lengths; the length itself is not secret.
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'mismatch' };
  return { ok: true };
}
