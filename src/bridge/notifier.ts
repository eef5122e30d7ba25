/** Notices for the people (Slack implements this); none of them throws or waits. */
export interface EscalationNotice {
  escalationId: string;
  /** `service/service_id`, e.g. `whatsapp/32470000001` */
  contactKey: string;
  customerName: string;
  channel: string;
  /** reason code and, when known, the words that triggered it */
  reason: string;
  summary: string;
  transcript: Array<{ from: 'customer' | 'bot' | 'agent'; text: string; at?: number }>;
  permalink?: string;
  /** epoch milliseconds */
  since: number;
}

export interface BridgeNotifier {
  escalated(notice: EscalationNotice): void;
  /** Posted in the thread of the original notice. */
  escalationStuck(notice: EscalationNotice, idleMinutes: number): void;
  /** Rewrites a posted escalation notice without its buttons, e.g. when an agent resolved it in the tool. */
  noticeUpdated(escalationId: string, outcome: string): void;
  tokenRevoked(): void;
  bridgePaused(reason: string): void;
}

export const silentNotifier: BridgeNotifier = {
  escalated: () => {},
  escalationStuck: () => {},
  noticeUpdated: () => {},
  tokenRevoked: () => {},
  bridgePaused: () => {},
};

/** What the log and /readyz say while the token is refused. */
export const TOKEN_REFUSED =
  'the access token was refused (the user changed their password or revoked access): re-authorise, put the new token in ' +
  'ENGAGE_ACCESS_TOKEN (.env or the settings file) and send SIGHUP or restart; the bridge waits and keeps every message';
