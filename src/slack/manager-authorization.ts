/** Commands anyone in the workspace may run; everything else is for managers only (deny by default). */
const OPEN_COMMANDS: ReadonlySet<string> = new Set(['help']);

export function isManager(userId: string, managerIds: readonly string[]): boolean {
  return userId.length > 0 && managerIds.includes(userId);
}

export function mayRunCommand(userId: string, commandName: string, managerIds: readonly string[]): boolean {
  return OPEN_COMMANDS.has(commandName) || isManager(userId, managerIds);
}

export function refusalText(userId: string, what: string): string {
  return (
    `Sorry, only bridge managers may ${what}. ` +
    `Ask an administrator to add your Slack user id (${userId}) to SLACK_MANAGER_IDS. ` +
    'Anyone may run `help`.'
  );
}
