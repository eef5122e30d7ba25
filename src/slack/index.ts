export { createSlackApp, type SlackApp, type SlackAppOptions } from './create-slack-app.js';
export type {
  AuditEntry,
  AuditSink,
  BridgeActions,
  Clock,
  CommandAnswer,
  CommandRunner,
  EscalationNotice,
  ParsedCommand,
  SlackActor,
  SlackLogger,
  SlackNotifier,
  TranscriptLine,
} from './ports.js';
export { computeSlackSignature, verifySlackSignature } from './slack-signature.js';
export { isServicePermalink, originOf } from './permalink-policy.js';
