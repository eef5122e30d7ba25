import type { MentionRecord } from './model.js';
import type { Runtime } from './runtime.js';

/**
 * A listed item of a shape the description does not promise (`realism.odd_item_rate`): `message.content` is a
 * number. Each mention rolls once, so the same item stays odd on every page that shows it, as a stored item would.
 */
export function withOddShape(rt: Runtime, m: MentionRecord, presented: Record<string, unknown>): Record<string, unknown> {
  const rate = rt.realism.odd_item_rate;
  if (rate <= 0) return presented;
  m.oddRoll ??= rt.faultRoll();
  if (m.oddRoll >= rate) return presented;
  const message = presented['message'] as Record<string, unknown>;
  return { ...presented, message: { ...message, content: m.content.length } };
}
