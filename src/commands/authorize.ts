import type { Actor } from './ports.js';

export type Authorization = { allowed: true } | { allowed: false; reason: string };

/**
 * The one place that decides who may run what: anyone may run `help`; the terminal is a manager
 * (whoever runs it already holds the account's token); on Slack only the listed manager ids.
 */
export function authorize(actor: Actor, commandName: string, managerIds: readonly string[]): Authorization {
  if (commandName === 'help') return { allowed: true };
  if (actor.transport === 'cli') return { allowed: true };
  if (actor.id !== '' && managerIds.includes(actor.id)) return { allowed: true };
  return {
    allowed: false,
    reason:
      `Only bridge managers may run "${commandName}". Ask an administrator to add your Slack user id ` +
      `(${actor.id || 'unknown'}) to SLACK_MANAGER_IDS. Anyone may run "help".`,
  };
}
