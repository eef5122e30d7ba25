// One turn of the brain: the input, the state being changed, and the actions collected so far.
import type { DecideInput, NluReading } from './bot-event.js';
import type { DialogState } from './dialog-state.js';
import type { Action } from './decision.js';
import type { HoursView } from './hours-view.js';
import { hoursView } from './hours-view.js';
import { fillTemplate } from './fill-template.js';
import { menuOffer, replyWithOffer, type MenuOffer } from './quick-replies.js';
import { localizeFlows } from './localized-texts.js';

export class Turn {
  readonly actions: Action[] = [];
  private hoursCache: { language: string; view: HoursView } | undefined;

  constructor(
    readonly input: DecideInput,
    public state: DialogState,
    readonly nowMs: number,
  ) {}

  /** The NLU reading of this turn's message, if any. */
  get nlu(): NluReading | undefined {
    const e = this.input.event;
    return e.kind === 'message' ? e.nlu : undefined;
  }

  /** The conversation's language (chosen at the start of the turn). */
  get language(): string {
    return this.state.language ?? this.input.flows.languages.default;
  }

  /** The flows in the conversation's language. */
  get flows(): DecideInput['flows'] {
    return localizeFlows(this.input.flows, this.language);
  }

  hours(): HoursView {
    if (this.hoursCache?.language !== this.language) {
      this.hoursCache = { language: this.language, view: hoursView(this.flows, this.input.hours, this.nowMs, this.language) };
    }
    return this.hoursCache.view;
  }

  /** Fills a text's variables; the hours ones are only computed when the text uses them. */
  fill(text: string): string {
    const vars: Record<string, string | undefined> = { ...this.state.collected, name: this.input.contact.name };
    if (/\{(back|until|hours_status|hours_week)\}/.test(text)) {
      const h = this.hours();
      Object.assign(vars, { back: h.back ?? 'soon', until: h.until, hours_week: h.week });
      vars.hours_status = fillTemplate(h.status, vars);
    }
    return fillTemplate(text, vars);
  }

  /** Sends a text, with a menu's quick replies when given, and remembers what was offered. */
  reply(text: string, menuName?: string): void {
    const offer = menuName !== undefined ? menuOffer(this.flows, menuName, this.input.cannedResponses ?? []) : undefined;
    this.replyOffering(text, offer);
  }

  /** Sends a text with these quick replies (some of a menu's buttons), and remembers what was offered. */
  replyOffering(text: string, offer: MenuOffer | undefined): void {
    const filled = this.fill(text);
    const action = replyWithOffer(filled || '…', offer, this.input.channel, this.flows.conversation.sms_hint);
    this.actions.push(action);
    if (offer) {
      const numbered = action.quickReplies === undefined;
      this.state.offer = {
        menu: offer.menu,
        buttons: offer.buttons,
        at: this.nowMs,
        numbered,
        ...(offer.cannedResponseId !== undefined ? { cannedResponseId: offer.cannedResponseId } : {}),
      };
      this.state.menusOffered[offer.menu] = this.nowMs;
    }
  }

  /** The main menu: the one the greeting offers. */
  get mainMenu(): string | undefined {
    return this.flows.greeting.menu;
  }
}
