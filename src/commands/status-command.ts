import type { CommandSpec } from './command-types.js';
import { describeFailure } from './describe-failure.js';
import { formatDuration, formatSince } from './format-since.js';
import type { BridgeHealth } from './ports.js';
import { shadowTallyLine } from './shadow-command.js';

/** Bridge health in a few lines; `nowMs` dates the last error. */
export function describeHealth(h: BridgeHealth, nowMs: number): string {
  const lag = h.ingestionLagMs === null ? 'unknown' : formatDuration(h.ingestionLagMs);
  const owners = Object.entries(h.conversationsByOwner)
    .filter(([, n]) => n !== undefined)
    .map(([owner, n]) => `${n} ${owner}`)
    .join(', ');
  const budget =
    h.apiBudgetRemaining === null
      ? 'unknown'
      : `${h.apiBudgetRemaining} calls left` +
        (h.apiBudgetResetMs === undefined ? '' : `, resets ${formatSince(h.apiBudgetResetMs, nowMs)}`);
  const lastError = h.lastError ? `${h.lastError.message} at ${formatSince(h.lastError.atMs, nowMs)}` : 'none';
  const dead = h.deadEffects && h.deadEffects.count > 0 ? h.deadEffects : undefined;
  return [
    `Bot: ${h.botPausedForAll ? 'PAUSED for every contact' : 'running'}`,
    ...(h.shadow ? [`Mode: shadow — sends, claims and updates nothing; ${shadowTallyLine(h.shadow)} (\`shadow\` for more)`] : []),
    `Ingestion lag: ${lag}`,
    `Conversations: ${owners || 'none'}`,
    `API budget: ${budget}`,
    ...(h.pollCallsLastHour
      ? [
          `Polling: ${h.pollCallsLastHour.list + h.pollCallsLastHour.recheck} calls in the last hour (${h.pollCallsLastHour.list} list pages, ${h.pollCallsLastHour.recheck} re-reads)`,
        ]
      : []),
    ...guessLines(h.guesses),
    `Last error: ${lastError}`,
    ...(dead
      ? [
          `Dead items (given up, not retried): ${dead.count}`,
          ...dead.latest
            .slice(0, 5)
            .map((d) => `  ${d.kind} for ${d.contactKey.replace(':', '/')} ${formatSince(d.atMs, nowMs)}: ${d.reason}`),
        ]
      : []),
  ].join('\n');
}

/** Only what did not hold: a guess that holds needs no line. */
function guessLines(g: BridgeHealth['guesses']): string[] {
  if (!g) return [];
  const probes = Object.entries(g.probes)
    .filter(([, p]) => !p.holds)
    .map(([name, p]) => `  ${name}: ${p.detail}`);
  const seen = Object.entries(g.notHeld)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([name, n]) => `  ${name}: ${n} time(s), the safe side taken`);
  return probes.length + seen.length === 0 ? [] : ['Guesses about the service that do not hold:', ...probes, ...seen];
}

const ROLE_TEXTS = {
  active: 'Role: active (holds the PostgreSQL lease)',
  standby: 'Role: standby (another instance holds the PostgreSQL lease; this one takes over when it lapses)',
} as const;

/**
 * What a standby answers on its command socket: `status` says it is a standby; every other command is for the
 * active instance, which alone may act.
 */
export function standbyCommandAnswer(text: string): { exitCode: number; output: string } {
  if (text.trim().toLowerCase() === 'status') return { exitCode: 0, output: ROLE_TEXTS.standby };
  return {
    exitCode: 1,
    output: `This instance is a standby: it acts on nothing until it takes over. Run "${text.trim().split(/\s+/)[0] ?? ''}" on the active instance.`,
  };
}

export const statusCommand: CommandSpec<'status'> = {
  name: 'status',
  usage: ['status'],
  summary: 'bridge health: ingestion lag, conversations by owner, API budget left, last error',
  examples: ['status'],
  parse(args) {
    if (args.length > 0) return { ok: false, error: `status takes no arguments (got "${args.join(' ')}")` };
    return { ok: true, command: { name: 'status' } };
  },
  subject: () => 'bridge',
  async run(_c, { deps }) {
    try {
      const health = describeHealth(await deps.bridge.health(), deps.now().getTime());
      const role = deps.instanceRole?.();
      return { ok: true, text: role ? `${ROLE_TEXTS[role]}\n${health}` : health };
    } catch (error) {
      return { ok: false, text: describeFailure(error, 'the bridge status') };
    }
  },
};
