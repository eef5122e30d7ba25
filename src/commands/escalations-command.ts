import { oneLineField } from '../shared/terminal-safe.js';
import type { CommandSpec } from './command-types.js';
import { describeFailure } from './describe-failure.js';
import { formatSince } from './format-since.js';

const MAX_LISTED = 50;

export const escalationsCommand: CommandSpec<'escalations'> = {
  name: 'escalations',
  usage: ['escalations'],
  summary: 'lists open escalations: who, channel, reason, since when (oldest first)',
  examples: ['escalations'],
  parse(args) {
    if (args.length > 0) return { ok: false, error: `escalations takes no arguments (got "${args.join(' ')}")` };
    return { ok: true, command: { name: 'escalations' } };
  },
  subject: () => 'open escalations',
  async run(_c, { deps }) {
    try {
      const open = [...(await deps.bridge.openEscalations())].sort((a, b) => a.sinceMs - b.sinceMs);
      if (open.length === 0) return { ok: true, text: 'No open escalations.' };
      const nowMs = deps.now().getTime();
      const lines = open
        .slice(0, MAX_LISTED)
        .map(
          (e) =>
            `• ${e.name ? `${oneLineField(e.name)} ` : ''}(${oneLineField(e.contactKey)}) on ${e.channel}: ${oneLineField(e.reason)}, since ${formatSince(e.sinceMs, nowMs)}`,
        );
      if (open.length > MAX_LISTED) lines.push(`… and ${open.length - MAX_LISTED} more`);
      return { ok: true, text: [`${open.length} open escalation${open.length === 1 ? '' : 's'}:`, ...lines].join('\n') };
    } catch (error) {
      return { ok: false, text: describeFailure(error, 'the open escalations') };
    }
  },
};
