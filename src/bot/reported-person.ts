// A person the customer tells about, not one they ask for: "thanks, the agent was very helpful", "mijn collega heeft
// het besteld", "mon responsable m'a demandé de suivre la commande", "l'agent de livraison n'est jamais venu". The
// flows' words for a person count as a request unless every one of them is the subject of something that happened.
import { foldText } from '../shared/fold-text.js';

/** What follows a person who did something, within a few words: a verb of a report, in English, Dutch or French. */
const REPORT = new RegExp(
  [
    // A few words may come between, not "who" or "que": "the agent who helped me" may be the one asked for.
    '^(?:(?!(?:who|that|which|die|dat|wie|qui|que|qu) )[^ ]+ ){0,3}(?:',
    'was|were|has been|had|said|says|told|asked|helped|did|called|promised|gave|sent|ordered|placed|bought|mentioned',
    '|explained|advised|suggested|wants to know|wanted to know',
    '|waren|heeft|hebben|zei|zegt|vroeg|hielp|belde|beloofde|gaf|stuurde|bestelde|wil weten|wou weten|legde',
    '|raadde|adviseerde',
    '|a ete|m a|m ont|a dit|a demande|n est|etait|avait|m avait|disait|veut savoir|voudrait savoir|de livraison',
    ')(?: |$)',
  ].join(''),
  'u',
);

/** Where the folded phrase starts in the folded clause, as whole words. */
function placesOf(clause: string, phrase: string): number[] {
  const padded = ` ${clause} `;
  const places: number[] = [];
  for (let at = padded.indexOf(` ${phrase} `); at >= 0; at = padded.indexOf(` ${phrase} `, at + 1)) places.push(at);
  return places;
}

/**
 * Whether the text names one of `words` (the flows' words for a person) only as someone who did something; false
 * when it names none, or one it may be asking for ("the agent was rude, I want a manager").
 */
export function personOnlyReported(text: string, words: readonly string[]): boolean {
  let reported = false;
  for (const clause of text.split(/[,.;:!?()\n]+/u).map(foldText)) {
    for (const w of words) {
      const phrase = foldText(w);
      if (!phrase) continue;
      for (const at of placesOf(clause, phrase)) {
        const after = ` ${clause} `.slice(at + phrase.length + 2);
        if (!REPORT.test(after)) return false;
        reported = true;
      }
    }
  }
  return reported;
}
