// Quick replies: which buttons a menu offers, how they render per channel, and which one a customer picked.
import type { Flows, MenuSpec } from './flow-schema.js';
import type { Button, CannedResponse, Channel } from './types.js';
import type { ReplyAction } from './decision.js';
import { foldText } from '../shared/fold-text.js';

export interface MenuOffer {
  menu: string;
  buttons: Button[];
  cannedResponseId?: string;
}

/** The buttons a menu offers: its canned response's (by id or name), else the titled buttons written in the flow file. */
export function menuOffer(flows: Flows, menuName: string, canned: readonly CannedResponse[]): MenuOffer | undefined {
  const menu = flows.menus[menuName];
  if (!menu) return undefined;
  const ref = menu.canned_response;
  const cr =
    ref === undefined
      ? undefined
      : (canned.find((c) => c.type === 'buttons' && c.id === ref) ??
        canned.find((c) => c.type === 'buttons' && foldText(c.name) === foldText(ref)));
  const crButtons = (cr?.data?.buttons ?? []).filter((b) => b.id && b.title);
  if (cr && crButtons.length > 0) return { menu: menuName, buttons: crButtons, cannedResponseId: cr.id };
  const inline = menu.buttons.flatMap((b, i) => (b.title !== undefined ? [{ id: b.id ?? `${menuName}-${i + 1}`, title: b.title }] : []));
  return inline.length > 0 ? { menu: menuName, buttons: inline } : undefined;
}

/** The flow's entry for a clicked button: by id, payload or title. */
export function menuEntry(menu: MenuSpec, button: Button): MenuSpec['buttons'][number] | undefined {
  return (
    menu.buttons.find((b) => b.id !== undefined && (b.id === button.id || b.id === button.payload)) ??
    menu.buttons.find((b) => b.title !== undefined && foldText(b.title) === foldText(button.title))
  );
}

/** Whether the channel shows buttons natively; SMS (twilio) gets numbered options in the text instead. */
export const nativeButtons = (channel: Channel): boolean => channel !== 'twilio';

/** A reply carrying quick replies: native buttons where the channel has them, numbered options in the text elsewhere. */
export function replyWithOffer(text: string, offer: MenuOffer | undefined, channel: Channel, smsHint: string): ReplyAction {
  if (!offer) return { type: 'reply', text };
  if (nativeButtons(channel) && offer.cannedResponseId !== undefined) {
    return { type: 'reply', text, quickReplies: { cannedResponseId: offer.cannedResponseId, buttons: offer.buttons } };
  }
  const options = offer.buttons.map((b, i) => `${i + 1}. ${b.title}`).join('\n');
  return { type: 'reply', text: [text, options, smsHint].filter((s) => s.trim()).join('\n') };
}

const NUMBER_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** The button a typed answer selects: its title on any channel; "2", "two", "option 2" where options were numbered. */
export function selectByText(text: string, buttons: readonly Button[], numbered: boolean): Button | undefined {
  const folded = foldText(text);
  if (!folded) return undefined;
  const byTitle = buttons.find((b) => foldText(b.title) === folded);
  if (byTitle || !numbered) return byTitle;
  const m = /^(?:(?:option|number|nr|no)\s+)?(\d{1,2}|[a-z]+)$/.exec(folded);
  if (!m?.[1]) return undefined;
  const n = /^\d+$/.test(m[1]) ? Number(m[1]) : NUMBER_WORDS.indexOf(m[1]) + 1;
  return n >= 1 ? buttons[n - 1] : undefined;
}
