// Anger in the customer's own words, in English, Dutch and French. NLP.js's sentiment lexicons read "this is so
// annoying" and "wat een rotbedrijf" as positive; the words customers use when they are fed up are few and plain, so
// they are listed here (folded: lower case, no accents), and every language's list counts (customers mix them).
// Besides the words: sarcastic thanks ("thanks for nothing", "bedankt voor niks", "merci pour rien"), a complaint
// repeated ("for the third time", "voor de derde keer", "combien de fois"), shouting (several words in capitals) and
// insistent punctuation ("?!", "!!!"), which a caller may leave out for a thanks ("thank you!!!").
import { foldText } from '../shared/fold-text.js';

/** Words that start with one of these (folded) are angry: "ridiculous", "belachelijke", "scandaleuse". By language. */
const STEMS = [
  'ridiculous|terrible|horrible|awful|useless|pathetic|disgrace|disgusting|unacceptable|outrageous|scandal|furious',
  'angry|annoyed|annoying|worst|rubbish|garbage|incompetent|shameful|frustrat|infuriat|livid|appalling|lousy|nonsense',
  'fuck|shit|wtf|hopeless|disappointed|irritat|upset|pissed|outraged|horrendous|atrocious|shocking|stupid|idiot|crap',
  'sucks|abus|absurd|unbelievabl|inexcusable|dreadful|scam|fraud|liars|clowns|amateur|insult|kidding|unhappy',
  'dissatisf|fuming|screw|damn|ugh',
  'belachelijk|schandalig|schande|waardelo|slechtste|onaanvaardbaar|onacceptabel|boos|kwaad|woedend|razend|rotbedrijf',
  'rotzooi|rotservice|klote|kut|verschrikkelijk|vreselijk|nutteloos|nutteloze|prutser|gefrustreerd|frustrerend',
  'ergerlijk|geirriteerd|bespottelijk|onbeschoft|oplichter|oplichting|zielig|hopeloos|lachwekkend|teleurgesteld',
  'teleurstellend|pissig|woest|geergerd|afgrijselijk|idioot|tijdverspilling|lamentabel|pruts|knudde|bagger|onzin',
  'flauwekul|ongelooflijk|ongelofelijk|klantonvriendelijk|bedrog|schandaal|debiel|achterlijk|sukkels|triest|slecht',
  'spuugzat|kotsbeu|onbetrouwba|onbekwaam|ontevreden|ongehoord|godver|verdom|alweer',
  'inadmissible|inacceptable|scandaleu|honteu|honte|ridicule|lamentable|pitoyable|furieu|enerv|colere|incompetent',
  'catastroph|deplorable|insupportable|degout|arnaque|escroc|merde|putain|nuls|exaspere|agac|intolerable|minable',
  'inutiles|decu|decevant|revoltant|stupide|debile|pourri|bordel|marre|mecontent|moquez|galere|fache',
  'insatisf|voleur|incapable|hallucin|inexistant',
].join('|');

/** Phrases (folded, whole words) that are angry where their words alone are not. */
const PHRASES = [
  'fed up|sick of|sick and tired|had enough|a joke|waste of time|bad service|poor service|what the hell|never again',
  'thanks for nothing|thank you for nothing|how many times|you must be joking|you re joking|rip off|waste of money',
  'not good enough|not acceptable|makes no sense|are you serious|not happy|so mad|really mad|once again|sigh',
  'het beu|ben het zat|genoeg van|gek van|zot van|het gehad|slechte service|een grap|nooit meer|klaar mee',
  'bedankt voor niks|bedankt voor niets|dank je voor niks|merci voor niks|om te huilen|om van te huilen|om te janken',
  'om van te janken|slaat nergens op|te gek voor woorden|van de gekke|hoe vaak nog|hoe vaak moet ik|hoeveel keer nog',
  'kan toch niet|kan echt niet|laatste keer|niet normaal|niet blij|weer eens',
  'en ai marre|ras le bol|n importe quoi|en ai assez|vous etes nul|c est nul|trop nul|pire service|perte de temps',
  'une blague|plus jamais|vraiment nul|merci pour rien|merci du cadeau|se moque|fout de|foutez de|a pleurer',
  'derniere fois que|combien de fois|pas normal|pas serieux|ca suffit|trop c est trop|le pire|la pire|nul',
  'pas possible|pas croyable|etes serieux|jamais vu|pas content|encore une fois|bande de',
  'mauvais service|tres mauvais|vraiment mauvais',
]
  .join('|')
  .split('|');

/** The phrases with a space on each side, made once (not a string per phrase per message). */
const PADDED_PHRASES = PHRASES.map((p) => ` ${p} `);

const stems = new RegExp(`(?:^| )(?:${STEMS})`, 'u');

/** A complaint made again: "for the third time", "voor de zoveelste keer", "déjà trois fois". */
const REPEATED = new RegExp(
  [
    ' (?:for the|voor de|pour la) (?:second|third|fourth|fifth|umpteenth|nth|\\d+(?:st|nd|rd|th|e|eme)|tweede|derde|vierde',
    '|vijfde|zoveelste|deuxieme|troisieme|quatrieme|cinquieme|enieme) (?:time|keer|fois) ',
    // "this is the second time I ask", "al de derde keer dat ik bel", "la troisième fois que je vous écris"
    '| (?:the|de|la) (?:second|third|fourth|fifth|umpteenth|tweede|derde|vierde|vijfde|zoveelste|deuxieme|troisieme',
    '|quatrieme|cinquieme|enieme) (?:time|keer|fois) (?:[a-z]+ ){0,3}(?:ask|asking|write|writing|contact|call|chase',
    '|vraag|schrijf|bel|contacteer|demande|ecris|appelle|relance|contacte)',
    '| (?:already|al|deja) (?:[a-z]+ )?(?:twice|two times|three times|several times|(?:twee|drie|meerdere|verschillende) keer|(?:deux|trois|plusieurs) fois) ',
  ].join(''),
  'u',
);

/**
 * Several words, most letters in capitals: "WHERE IS MY ORDER". The capitals are counted first: a text with none (most
 * messages) is not shouting, and its letters need no list (issue 28).
 */
function shouting(text: string): boolean {
  const upper = text.match(/\p{Lu}/gu);
  if (upper === null || (text.match(/\p{L}{2,}/gu) ?? []).length < 3) return false;
  const letters = text.match(/\p{L}/gu) ?? [];
  return upper.length >= 0.7 * letters.length;
}

/** Insistent punctuation: "?!", "!?", three or more of a mark, or two doubled marks ("?? ... !!"). */
export function insistent(text: string): boolean {
  return /\?!|!\?|!{3}|\?{3}/u.test(text) || (text.match(/!!|\?\?/gu) ?? []).length >= 2;
}

/**
 * Whether the customer's text reads angry in any of the three languages. `punctuation`: whether insistent marks count
 * on their own (not for a thanks: "thank you!!!").
 */
export function soundsAngry(text: string, options: { punctuation?: boolean } = {}): boolean {
  const folded = ` ${foldText(text)} `;
  return (
    stems.test(folded) ||
    PADDED_PHRASES.some((p) => folded.includes(p)) ||
    REPEATED.test(folded) ||
    shouting(text) ||
    (options.punctuation !== false && insistent(text))
  );
}
