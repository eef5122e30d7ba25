import type { CommandSpec } from './command-types.js';
import { describeFailure } from './describe-failure.js';
import { formatSince } from './format-since.js';

const DEFAULT_MINUTES = 60;
const MAX_MINUTES = 7 * 24 * 60;

/** `60m`, `2h`, `1d` or a bare number of minutes. */
function readMinutes(text: string): number | undefined {
  const m = /^(\d+)([mhd]?)$/.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const minutes = m[2] === 'h' ? n * 60 : m[2] === 'd' ? n * 1440 : n;
  return minutes >= 1 && minutes <= MAX_MINUTES ? minutes : undefined;
}

export const releaseCommand: CommandSpec<'release'> = {
  name: 'release',
  usage: ['release [--since 60m] [--dry-run]'],
  summary:
    'hands to people every contact the bot holds whose customer wrote in the last hour (or --since), with a note saying why; --dry-run only lists them',
  examples: ['release --dry-run', 'release --since 2h'],
  parse(args) {
    let sinceMinutes = DEFAULT_MINUTES;
    let dryRun = false;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as string;
      if (arg === '--dry-run') dryRun = true;
      else if (arg === '--since') {
        const minutes = readMinutes(args[i + 1] ?? '');
        if (minutes === undefined) return { ok: false, error: '--since takes a duration such as 30m, 2h or 1d (at most 7 days)' };
        sinceMinutes = minutes;
        i++;
      } else return { ok: false, error: `release does not take "${arg}"` };
    }
    return { ok: true, command: { name: 'release', sinceMinutes, dryRun } };
  },
  subject: (c) => `contacts with customer activity in the last ${c.sinceMinutes} min${c.dryRun ? ' (dry run)' : ''}`,
  async run(c, { deps, actor }) {
    try {
      const why = `released to people by a manager (${actor.transport}:${actor.id}): the bot is not answering for now`;
      const list = await deps.bridge.releaseToAgents({ sinceMs: c.sinceMinutes * 60_000, dryRun: c.dryRun, why }, actor);
      const nowMs = deps.now().getTime();
      if (list.length === 0) return { ok: true, text: `No contact the bot holds had customer activity in the last ${c.sinceMinutes} min.` };
      const lines = list.map(
        (r) =>
          `• ${r.name ? `${r.name} ` : ''}(${r.contactKey}), last message ${formatSince(r.lastCustomerAtMs, nowMs)}` +
          (c.dryRun ? '' : r.released ? ': handed to people' : `: NOT handed over (${r.reason ?? 'unknown'})`),
      );
      const failed = list.filter((r) => !c.dryRun && !r.released).length;
      const head = c.dryRun
        ? `Would hand ${list.length} contact${list.length === 1 ? '' : 's'} to people (dry run, nothing changed):`
        : `Handed ${list.length - failed} of ${list.length} contact${list.length === 1 ? '' : 's'} to people:`;
      return { ok: failed === 0, text: [head, ...lines].join('\n') };
    } catch (error) {
      return { ok: false, text: describeFailure(error, 'the release') };
    }
  },
};
