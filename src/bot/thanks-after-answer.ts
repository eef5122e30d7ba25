// A thanks after an answer: "perfect, I'll come by tomorrow then, thanks" closes the hours question, it does not
// ask about an order, however much "come by" or "wait" sound like one to the NLU.
import type { Turn } from './turn.js';
import { findWords, matchIntent, phrasesAndKeywords, type IntentMatch } from './match-intent.js';

/**
 * Just after the bot answered (an intent acted on, no question waiting), a message with the words of an intent that
 * yields to others (`nlu.embedded.yielding`: the thanks) that asks nothing (no question mark) and holds no other
 * intent's words is that intent, whatever else the NLU reads in it.
 */
export function thanksAfterAnswer(turn: Turn, text: string): IntentMatch | undefined {
  const { flows, state } = turn;
  if (state.lastIntent === undefined || state.question || text.includes('?')) return undefined;
  for (const name of flows.nlu.embedded.yielding) {
    const intent = flows.intents[name];
    if (!intent) continue;
    const words = findWords(text, phrasesAndKeywords(intent));
    if (words === undefined) continue;
    if (matchIntent(flows, text, name) === undefined) return { name, words };
  }
  return undefined;
}
