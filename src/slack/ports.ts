// What the Slack transport needs from the rest of the bridge. Kept small so the transport can be
// tested against fakes and wired to the real command executor and bridge by the composition root.

/** Who did something, as the audit log and the command executor see it. */
export interface SlackActor {
  id: string;
  name?: string;
  transport: 'slack';
}

export type ParsedCommand = { ok: true; name: string } | { ok: false; usage: string };

export interface CommandAnswer {
  ok: boolean;
  text: string;
}

/**
 * The transport-free command executor. `parse` must be pure and fast (it runs inside the 3-second ack);
 * `run` does the work and audits the run itself (allowed or refused), so the transport only audits what
 * never reaches it: usage errors and its own refusals.
 */
export interface CommandRunner {
  parse(text: string): ParsedCommand;
  run(text: string, actor: SlackActor): Promise<CommandAnswer>;
}

/** The bridge's actions behind the notice buttons; both go through the ownership state machine. */
export interface BridgeActions {
  returnToBot(contactKey: string, actor: SlackActor): Promise<void>;
  markResolved(escalationId: string, actor: SlackActor): Promise<void>;
}

export interface AuditEntry {
  /** epoch milliseconds */
  at: number;
  actor: string;
  action: string;
  subject: string;
  reason?: string;
  result?: string;
}

export interface AuditSink {
  audit(entry: AuditEntry): void | Promise<void>;
}

/** pino-compatible subset: structured data first, message second. */
export interface SlackLogger {
  debug(data: Record<string, unknown>, msg: string): void;
  info(data: Record<string, unknown>, msg: string): void;
  warn(data: Record<string, unknown>, msg: string): void;
  error(data: Record<string, unknown>, msg: string): void;
}

export interface Clock {
  /** epoch milliseconds */
  now(): number;
}

export interface TranscriptLine {
  from: 'customer' | 'bot' | 'agent';
  text: string;
  /** epoch milliseconds */
  at?: number;
}

/** What the bridge knows when it escalates a conversation (rendered from the bot's context packet). */
export interface EscalationNotice {
  escalationId: string;
  /** `service/service_id`, e.g. `whatsapp/32470000001` */
  contactKey: string;
  customerName: string;
  channel: string;
  /** reason code and, when known, the words that triggered it */
  reason: string;
  summary: string;
  transcript: TranscriptLine[];
  /** the mention permalink in the service's own tool */
  permalink?: string;
  /** epoch milliseconds */
  since: number;
}

/** The notices the bridge sends to managers; none of them throws or waits for Slack. */
export interface SlackNotifier {
  escalated(notice: EscalationNotice): void;
  escalationStuck(notice: EscalationNotice, idleMinutes: number): void;
  /** Rewrites a posted escalation notice without its buttons, e.g. when an agent resolved it in the tool. */
  noticeUpdated(escalationId: string, outcome: string): void;
  tokenRevoked(): void;
  bridgePaused(reason: string): void;
}
