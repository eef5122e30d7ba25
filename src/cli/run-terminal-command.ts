import { runCliCommand, type CommandDeps } from '../commands/index.js';

/**
 * A manager command from the terminal. The executor audits what it runs; a command it never ran (malformed) is
 * audited here, as the Slack transport does for its own, so every command typed anywhere is in the audit log.
 */
export async function runTerminalCommand(text: string, deps: CommandDeps): Promise<{ exitCode: 0 | 1 | 2; output: string }> {
  const result = await runCliCommand(text, deps);
  if (result.exitCode === 2) {
    try {
      await deps.audit.audit({
        at: deps.now().getTime(),
        actor: 'cli:terminal',
        action: 'malformed',
        subject: text.slice(0, 500),
        result: 'failed',
        reason: `usage error: ${result.output.split('\n')[0] ?? ''}`,
      });
    } catch {
      // the answer matters more than its audit line; the store logs its own write failures
    }
  }
  return result;
}
