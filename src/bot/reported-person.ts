// A person the customer tells about, not one they ask for: "thanks, the agent was very helpful", "mijn collega heeft
// het besteld", "a job as an agent", "mon responsable m'a demandé de suivre la commande", "l'agent de livraison n'est jamais venu"; or asks
// the hours of: "when is the manager in?", "à quelle heure le directeur arrive ?"; or a call promised before: "the
// courier was supposed to call me back". The flows' words for a person count as a request unless every one of them is
// the subject of something that happened, promised before, or named in a question about when.
import { foldText } from '../shared/fold-text.js';
import { asksSomething } from './someone-asked.js';

/** What follows a person who did something, within a few words: a verb of a report, in English, Dutch or French. */
const REPORT = new RegExp(
  [
    // A few words may come between, not "who" or "que": "the agent who helped me" may be the one asked for.
    '^(?:(?!(?:who|that|which|die|dat|wie|qui|que|qu) )[^ ]+ ){0,4}(?:',
    'was|were|has been|had|said|says|told|asked|helped|did|called|promised|gave|sent|ordered|placed|bought|mentioned',
    '|explained|advised|suggested|wants to know|wanted to know|hung up|spoke|talked',
    '|waren|heeft|hebben|zei|zegt|vroeg|hielp|belde|beloofde|gaf|stuurde|bestelde|wil weten|wou weten|legde',
    '|raadde|adviseerde|gebeld|gesproken|gemaild',
    '|a ete|m a|m ont|a dit|a demande|n est|etait|avait|m avait|disait|dit|raccroche|a promis|avait promis|a propose|a confirme|a assure|a envoye|a laisse|a oublie|a refuse|veut savoir|voudrait savoir|de livraison',
    ')(?: |$)',
  ].join(''),
  'u',
);

/**
 * A question about when: "when is the manager in?", "hoe laat begint de teamleider?", "à quelle heure le directeur
 * arrive ?", and with a day or a holiday in a question ("is your boss available on saturday?", "werkt jullie personeel
 * op feestdagen?"): the opening hours are asked.
 */
const WHEN =
  /(?:^| )(?:when|what time|how late|until when|till when|wanneer|hoe laat|tot wanneer|vanaf wanneer|quand|quelle heure|jusqu a quand)(?: |$)/u;
const DAY =
  /(?:^| )(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekends?|maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag|weekend|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|week end|holidays?|bank holidays?|christmas|easter|feestdag|feestdagen|kerstmis|kerst|pasen|jours? feries?|noel|paques)(?: |$)/u;

/**
 * The customer's own people ("my boss wants a refund", "mijn collega heeft besteld", "mon patron") and "in person"
 * ("can I pick it up in person?", "en personne"); not an adviser of theirs at the company ("mon conseiller").
 */
const OWN = /(?:^| )(?:my|mijn|mn|m n|mon|ma|our|onze|ons|notre)$/u;
/**
 * A relative clause in the past: "the employee who packed my order forgot ...", "de werknemer die mijn bestelling
 * inpakte", "l'employé qui a emballé ma commande"; it tells about the person unless the clause asks for something
 * ("can I talk to the agent who helped me yesterday?").
 */
const RELATIVE_PAST =
  /^(?:who|that|die|dat|qui)(?: [^ ]+){0,3} (?:[a-z]+ed|sold|forgot|took|brought|left|sent|gave|told|said|spoke|made|[a-z]+(?:te|de)|heeft|had|was|a [a-z]+|avait|etait)(?: |$)/u;
/** A person word naming a thing: "a staff discount", "employee parking". */
const ATTRIBUTE = /^(?:discounts?|korting|remise|reduction|parking|entrance|ingang|only)(?: |$)/u;
/** A role, not a person: "a job as a customer service agent", "solliciteren als klantenadviseur", "postuler comme conseiller". */
const ROLE = /(?:^| )(?:as an?|als|comme|en tant que)(?: [^ ]+){0,2}$/u;
const IN_PERSON = /(?:^| )(?:in|en)$/u;
/** Something promised before: "the courier was supposed to call me back", "ze zouden me terugbellen", "il devait me joindre". */
const PROMISED =
  /(?:^| )(?:supposed to|was going to|were going to|promised to|would|zou|zouden|moest|moesten|beloofde|devait|devaient|aurait du|auraient du)$/u;
const ADVISERS = new Set(['conseiller', 'conseillere', 'adviseur', 'advisor', 'agent']);

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
  for (const raw of text.split(/(?<=[,.;:!?()\n])/u)) {
    const clause = foldText(raw);
    const aboutTime = WHEN.test(clause) || (raw.trim().endsWith('?') && DAY.test(clause));
    for (const w of words) {
      const phrase = foldText(w);
      if (!phrase) continue;
      for (const at of placesOf(clause, phrase)) {
        const after = ` ${clause} `.slice(at + phrase.length + 2);
        const before = ` ${clause} `.slice(0, at).trimEnd();
        const theirs = (OWN.test(before) && !ADVISERS.has(phrase)) || (IN_PERSON.test(before) && phrase === 'person');
        const told =
          ROLE.test(before) ||
          PROMISED.test(before) ||
          REPORT.test(after) ||
          ATTRIBUTE.test(after) ||
          (RELATIVE_PAST.test(after) && !asksSomething(clause));
        if (!aboutTime && !theirs && !told) return false;
        reported = true;
      }
    }
  }
  return reported;
}
