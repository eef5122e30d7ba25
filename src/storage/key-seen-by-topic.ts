import type { HotState } from './hot-state.js';
import { ANY_TOPIC, mentionRef } from './records.js';

/**
 * The second half of the v1 -> v2 migration, run on the whole loaded state (snapshot shards and journal alike):
 * every seen id becomes `topicId/id`. A mention still waiting in the inbox knows its topic; any other id is kept
 * as seen in every topic (`*`/id), so nothing read before the upgrade is answered again (pruned by age as before).
 * Effects of a waiting mention were keyed `${id}:step`: they become `${topicId/id}:step`, so a decision taken
 * before the upgrade is found again and not taken twice.
 */
export function keySeenByTopic(state: HotState): { seen: number; effects: number } {
  const topicOf = new Map<string, string>();
  for (const m of state.inbox) topicOf.set(m.id, m.topicId);
  const legacy = [...state.seen.entries()].filter(([key]) => !key.includes('/'));
  for (const [id, at] of legacy) {
    state.seen.delete(id);
    state.seen.set(mentionRef(topicOf.get(id) ?? ANY_TOPIC, id), at);
  }
  let effects = 0;
  const waiting = new Map(state.inbox.map((m) => [m.id, m]));
  for (const [key, effect] of [...state.outbox.entries()]) {
    const cut = key.indexOf(':');
    const mention = cut > 0 ? waiting.get(key.slice(0, cut)) : undefined;
    if (!mention || mention.key !== effect.contactKey) continue;
    const renamed = `${mentionRef(mention.topicId, mention.id)}${key.slice(cut)}`;
    state.outbox.delete(key);
    state.outbox.set(renamed, { ...effect, key: renamed });
    effects += 1;
  }
  return { seen: legacy.length, effects };
}
