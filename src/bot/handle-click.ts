// A quick reply the customer picked: from the current offer, from an older message, or no longer meaningful.
import type { Button } from './types.js';
import type { Turn } from './turn.js';
import { foldText } from '../shared/fold-text.js';
import { menuEntry } from './quick-replies.js';
import { runStep } from './run-step.js';

export type ClickResult = 'handled' | 'as-text' | 'unmatched';

const sameButton = (a: Button, b: Button): boolean =>
  a.id === b.id || (a.payload !== undefined && a.payload === b.payload) || foldText(a.title) === foldText(b.title);

function runEntry(turn: Turn, menuName: string, button: Button): ClickResult {
  const menu = turn.flows.menus[menuName];
  const entry = menu && menuEntry(menu, button);
  // A button the flow file does not map still says something: read its title as if typed.
  if (!entry) return 'as-text';
  const trigger = turn.flows.escalation.triggers.quick_reply;
  if (entry.then.escalate !== undefined && !trigger.enabled) return 'unmatched';
  const origin = { reason: 'quick_reply', words: button.title, priority: trigger.priority };
  // Choosing from a menu abandons a question left open.
  delete turn.state.question;
  turn.state.fallbacks = 0;
  return runStep(turn, entry.then, origin) ? 'handled' : 'unmatched';
}

/**
 * Acts on a click as the conversation stands now, never by replaying what the old message did:
 * a button of the current (not stale) offer runs; a button from a menu offered earlier runs afresh when
 * it only informs, or when that menu was offered recently in this stretch; anything else gets a polite
 * answer and the current menu.
 */
export function handleClick(turn: Turn, button: Button): ClickResult {
  const { state, flows } = turn;
  const offer = state.offer;
  const staleMs = flows.conversation.stale_click_minutes * 60_000;
  if (offer && turn.nowMs - offer.at <= staleMs && offer.buttons.some((b) => sameButton(b, button))) {
    return runEntry(turn, offer.menu, button);
  }
  const older = Object.entries(state.menusOffered).sort((a, b) => b[1] - a[1]);
  for (const [menuName, offeredAt] of older) {
    const entry = flows.menus[menuName] && menuEntry(flows.menus[menuName], button);
    if (!entry) continue;
    // Informational buttons still mean the same; an action (escalation) runs only from a recent message of
    // this stretch, never replayed from before the conversation went to agents and came back.
    const recent = offeredAt >= state.stretchStartedAt && turn.nowMs - offeredAt <= staleMs;
    if (entry.then.escalate === undefined || recent) return runEntry(turn, menuName, button);
    break;
  }
  turn.reply(flows.conversation.stale_click, turn.mainMenu);
  return 'handled';
}
