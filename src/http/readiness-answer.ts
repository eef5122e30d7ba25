/**
 * `/readyz` listens on every interface: it answers only a fixed code and a fixed short text. Whatever the bridge
 * knows beyond that (an API error's text, a contact's number) goes to the log, never to the caller.
 */
export const READINESS_TEXTS = {
  'token-refused': 'the access token was refused: re-authorise and send SIGHUP (details in the log)',
  'no-api-contact': 'no successful API call yet',
  'poll-stale': 'the last successful poll is too old (details in the log)',
  'poll-sees-nothing':
    'the poll lists nothing while the webhook records customers: the mentions list may not answer what the poll asks (details in the log)',
  'not-ready': 'not ready (details in the log)',
  standby: 'standby: another instance is active; this one takes over when its lease lapses',
} as const;

export type ReadinessCode = keyof typeof READINESS_TEXTS;

/** What the bridge says of itself: `detail` is for the log only. */
export interface Readiness {
  readonly ready: boolean;
  readonly code?: string;
  readonly detail?: string;
}

function isKnownCode(code: string | undefined): code is ReadinessCode {
  return code !== undefined && Object.hasOwn(READINESS_TEXTS, code);
}

/** The public body of `/readyz`: fixed words only, whatever the readiness carries. */
export function readinessAnswer(r: Readiness): { status: 'ready' } | { status: 'not ready'; code: ReadinessCode; reason: string } {
  if (r.ready) return { status: 'ready' };
  const code = isKnownCode(r.code) ? r.code : 'not-ready';
  return { status: 'not ready', code, reason: READINESS_TEXTS[code] };
}
