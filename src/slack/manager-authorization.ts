import { authorize } from '../commands/index.js';
import type { SlackActor } from './ports.js';

// The rule itself lives in src/commands (one function for both transports); this file only words the
// Slack-side refusals.

/** Whether `actor` may run `commandName` (deny by default: only `help` is open to everyone). */
export function mayRunCommand(actor: SlackActor, commandName: string, managerIds: readonly string[]): boolean {
  return authorize(actor, commandName, managerIds).allowed;
}

/** Notice buttons change ownership, so they need what any manager command needs. */
export function mayUseNoticeButtons(actor: SlackActor, managerIds: readonly string[]): boolean {
  return authorize(actor, 'handover', managerIds).allowed;
}

export function refusalText(userId: string, what: string): string {
  return (
    `Sorry, only bridge managers may ${what}. ` +
    `Ask an administrator to add your Slack user id (${userId}) to SLACK_MANAGER_IDS. ` +
    'Anyone may run `help`.'
  );
}
