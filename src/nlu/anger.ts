// Anger in the customer's own words, in English, Dutch and French. NLP.js's sentiment lexicons read "this is so
// annoying" and "wat een rotbedrijf" as positive; the words customers use when they are fed up are few and plain, so
// they are listed here (folded: lower case, no accents), and every language's list counts (customers mix them).
// Shouting (a message of several words in capitals) counts too.
import { foldText } from '../shared/fold-text.js';

/** Words that start with one of these (folded) are angry: "ridiculous", "belachelijke", "scandaleuse". By language. */
const STEMS = [
  'ridiculous|terrible|horrible|awful|useless|pathetic|disgrace|disgusting|unacceptable|outrageous|scandal|furious',
  'angry|annoyed|annoying|worst|rubbish|garbage|incompetent|shameful|frustrat|infuriat|livid|appalling|lousy|nonsense',
  'fuck|shit|wtf|hopeless|disappointed|irritat|upset|pissed|outraged|horrendous|atrocious|shocking|stupid|idiot|crap',
  'sucks',
  'belachelijk|schandalig|schande|waardelo|slechtste|onaanvaardbaar|onacceptabel|boos|kwaad|woedend|razend|rotbedrijf',
  'rotzooi|rotservice|klote|kut|verschrikkelijk|vreselijk|nutteloos|nutteloze|prutser|gefrustreerd|frustrerend',
  'ergerlijk|geirriteerd|bespottelijk|onbeschoft|oplichter|oplichting|zielig|hopeloos|lachwekkend|teleurgesteld',
  'teleurstellend|pissig|woest|geergerd|afgrijselijk|idioot|tijdverspilling|lamentabel',
  'inadmissible|inacceptable|scandaleu|honteu|honte|ridicule|lamentable|pitoyable|furieu|enerve|colere|incompetent',
  'catastroph|deplorable|insupportable|degoute|arnaque|escroc|merde|putain|nuls|exaspere|agace|intolerable|minable',
  'inutiles|decu|decevant|revoltant|stupide|debile|pourri|bordel',
].join('|');

/** Phrases (folded, whole words) that are angry where their words alone are not. */
const PHRASES = [
  'fed up|sick of|sick and tired|had enough|a joke|waste of time|bad service|poor service|what the hell|never again',
  'het beu|ben het zat|genoeg van|gek van|het gehad|slechte service|een grap|nooit meer',
  'en ai marre|ras le bol|n importe quoi|en ai assez|vous etes nul|c est nul|trop nul|pire service|perte de temps',
  'une blague|plus jamais|vraiment nul',
]
  .join('|')
  .split('|');

const stems = new RegExp(`(?:^| )(?:${STEMS})`, 'u');

/** Several words, most letters in capitals: "WHERE IS MY ORDER". */
function shouting(text: string): boolean {
  const letters = text.match(/\p{L}/gu) ?? [];
  const upper = text.match(/\p{Lu}/gu) ?? [];
  return (text.match(/\p{L}{2,}/gu) ?? []).length >= 3 && upper.length >= 0.7 * letters.length;
}

/** Whether the customer's text reads angry in any of the three languages. */
export function soundsAngry(text: string): boolean {
  const folded = ` ${foldText(text)} `;
  return stems.test(folded) || PHRASES.some((p) => folded.includes(` ${p} `)) || shouting(text);
}
