// What the Slack transport needs from the rest of the bridge. Kept small so the transport can be
// tested against fakes and wired to the real command executor and bridge by the composition root.
import type { EscalationNotice, BridgeNotifier } from '../bridge/index.js';

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

import type { AuditEntry } from '../shared/audit-entry.js';
export type { AuditEntry };

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

// The notice shapes are the bridge's (it sends them); Slack renders them.
export type { EscalationNotice } from '../bridge/index.js';
export type TranscriptLine = EscalationNotice['transcript'][number];

/** The notices the bridge sends to managers; none of them throws or waits for Slack. */
export type SlackNotifier = BridgeNotifier;
