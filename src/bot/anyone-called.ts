// "hello? anybody?", "iemand?", "quelqu'un ?": a question that is nothing but a call for someone asks for a person. The
// word alone is no request in a longer clause ("can someone tell me where my parcel is?"), so it is no flows phrase.
import { foldText } from '../shared/fold-text.js';

/** A folded clause that only calls for someone, with a greeting or "is there" and "there" at most. */
const CALL =
  /^(?:(?:hello|hi|hey|hallo|allo|bonjour) )?(?:(?:is there|is|is daar|is er|il y a|y a t il) )?(?:anybody|anyone|somebody|someone|iemand|quelqu un)(?: (?:there|here|around|out there|daar|hier|la|ici))?$/u;

/** A folded clause that is only "transfer me" ("transfer me the refund" is not: no flows phrase). */
const TRANSFER = /^(?:please )?(?:transfer|forward) me(?: please| pls| now)?$/u;

/** Whether a clause of the text that ends in "?" only calls for someone, or a clause only says "transfer me". */
export function anyoneCalled(text: string): boolean {
  if (text.split(/[,.;:!?\n]+/u).some((raw) => TRANSFER.test(foldText(raw)))) return true;
  return text
    .split(/(?<=\?)/u)
    .filter((raw) => raw.trim().endsWith('?'))
    .some((raw) => CALL.test(foldText(raw.replace(/^.*[,.;:!(\n]/su, ''))));
}
