import type { LogTail } from './log-tail.js';
import type { OutboundEntry } from './sim-client.js';
import type { SentMessage } from './load-driver.js';

/** The first bot message published for each mention id, with when the bench saw it. */
export function firstBotReplies(entries: ReadonlyArray<OutboundEntry & { seenAt: number }>): Map<string, number> {
  const first = new Map<string, number>();
  for (const e of entries) {
    if (e.author !== 'bot' || e.mention_id === null) continue;
    const id = String(e.mention_id);
    if (!first.has(id)) first.set(id, e.seenAt);
  }
  return first;
}

export interface Answered {
  readonly answered: number;
  /** Per answered message: reply seen − message confirmed, ms. */
  readonly latenciesMs: number[];
  /** When the last of them was seen (ms), or undefined when none was. */
  readonly lastReplyAt: number | undefined;
}

export function answeredOf(sent: readonly SentMessage[], replies: Map<string, number>): Answered {
  const latenciesMs: number[] = [];
  let lastReplyAt: number | undefined;
  for (const m of sent) {
    const at = replies.get(m.mentionId);
    if (at === undefined) continue;
    latenciesMs.push(Math.max(0, at - m.sentAt));
    lastReplyAt = Math.max(lastReplyAt ?? at, at);
  }
  return { answered: latenciesMs.length, latenciesMs, lastReplyAt };
}

/**
 * Waits until every message has a bot reply, or until nothing new was answered for `stallMs`, or `deadlineMs`
 * after the call (then the rest counts as unanswered: the run stays bounded). Polls the tail.
 */
export async function waitForReplies(
  tail: LogTail<OutboundEntry>,
  sent: readonly SentMessage[],
  o: { stallMs: number; deadlineMs?: number; pollMs?: number },
): Promise<Answered> {
  let best = -1;
  let lastProgress = Date.now();
  const deadline = Date.now() + (o.deadlineMs ?? Number.POSITIVE_INFINITY);
  for (;;) {
    await tail.catchUp();
    const a = answeredOf(sent, firstBotReplies(tail.entries));
    if (a.answered === sent.length) return a;
    if (a.answered > best) {
      best = a.answered;
      lastProgress = Date.now();
    } else if (Date.now() - lastProgress > o.stallMs) return a;
    if (Date.now() > deadline) return a;
    await new Promise((r) => setTimeout(r, o.pollMs ?? 20));
  }
}
