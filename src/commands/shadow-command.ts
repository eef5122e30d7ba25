import type { CommandSpec } from './command-types.js';
import { describeFailure } from './describe-failure.js';
import { formatSince } from './format-since.js';
import type { ShadowView } from './ports.js';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The tally in one line: would answer, would escalate, would have claimed from people. */
export function shadowTallyLine(s: ShadowView): string {
  const escalations = Object.values(s.wouldEscalate).reduce((a, b) => a + b, 0);
  return `would answer ${s.wouldAnswer}, would escalate ${escalations}, would have claimed from people ${s.wouldClaimFromPeople}`;
}

const clip = (text: string, max = 160) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The `shadow` answer: the tally since the start, why it would escalate, and the newest replies it would have sent. */
export function describeShadow(s: ShadowView | undefined, nowMs: number): string {
  if (!s) return 'The bridge runs live (BRIDGE_MODE=live): it answers customers. Shadow mode is BRIDGE_MODE=shadow or `start --shadow`.';
  const reasons = Object.entries(s.wouldEscalate).sort((a, b) => b[1] - a[1]);
  const withheld = Object.entries(s.writesWithheld).sort((a, b) => b[1] - a[1]);
  const escalated = reasons.reduce((a, [, n]) => a + n, 0);
  return [
    `Shadow mode since ${formatSince(s.sinceMs, nowMs)}: nothing was sent, claimed or updated.`,
    `Would answer: ${plural(s.wouldAnswer, 'reply', 'replies')}`,
    `Would escalate: ${escalated}${reasons.length ? ` (${reasons.map(([why, n]) => `${why} ${n}`).join(', ')})` : ''}`,
    `Would claim: ${s.wouldClaim} contact(s), from people: ${s.wouldClaimFromPeople}${s.wouldClaimFromPeople > 0 ? ' — NOT SAFE: these contacts were held by people' : ' (must be 0)'}`,
    `Writes held back: ${withheld.length ? withheld.map(([call, n]) => `${call} ${n}`).join(', ') : 'none'}`,
    ...(s.sample.length
      ? [
          `Replies it would have sent (newest ${s.sample.length}):`,
          ...[...s.sample].reverse().map((r) => `  ${formatSince(r.atMs, nowMs)} to ${r.contactKey.replace(':', '/')}: ${clip(r.text)}`),
        ]
      : ['Replies it would have sent: none yet']),
  ].join('\n');
}

export const shadowCommand: CommandSpec<'shadow'> = {
  name: 'shadow',
  usage: ['shadow'],
  summary: 'in shadow mode: what the bot would have done (answers, escalations and why, claims from people) and replies it would have sent',
  examples: ['shadow'],
  parse(args) {
    if (args.length > 0) return { ok: false, error: `shadow takes no arguments (got "${args.join(' ')}")` };
    return { ok: true, command: { name: 'shadow' } };
  },
  subject: () => 'bridge',
  async run(_c, { deps }) {
    try {
      return { ok: true, text: describeShadow((await deps.bridge.health()).shadow, deps.now().getTime()) };
    } catch (error) {
      return { ok: false, text: describeFailure(error, 'the shadow tally') };
    }
  },
};
