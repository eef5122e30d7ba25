// Requests for a person that no single word of the flows says, in English, Dutch and French: a verb of talking with
// "someone" ("I'd rather discuss this with someone", "ik leg het liever aan iemand uit", "je préférerais en parler avec
// quelqu'un"), asking to be called, mailed or contacted ("can someone give me a ring", "kan iemand me hierover mailen",
// "vous pouvez m'appeler ?"), asking who to turn to ("who can I complain to?", "bij wie kan ik een klacht indienen?",
// "à qui je peux me plaindre ?") and asking whether anyone is there ("is somebody on the other end?", "werkt daar nog
// iemand?", "quelqu'un lit mes messages ?"). Only present and infinitive verbs count: "I talked to someone yesterday",
// "ik heb met iemand gesproken" and "the courier called me" tell what happened. The spans found are checked like the
// flows' words (reported-person.ts: a promise, a question about when, a person told about).
import { foldText } from '../shared/fold-text.js';

const EN_SOMEONE =
  '(?:someone|somebody|anyone|anybody|some one|sum1|some1|sumone|a colleague|one of your (?:people|team|staff|colleagues))';
const NL_SOMEONE = '(?:iemand|iemant|iemnd|een collega|een van jullie mensen|een personeelslid|een werknemer)';
const FR_SOMEONE =
  '(?:quelqu un|quelquun|qqn|qqun|une personne|un employe|une employee|un membre (?:de votre equipe|de l equipe|du personnel)|un collegue)';

/** Folded clause patterns; each match is a span asking for a person. */
const RULES: readonly RegExp[] = [
  // English: talking with someone ("discuss this with someone", "a word with someone", "explain my situation to")
  new RegExp(
    `(?:talk|tlk|speak|speek|spk|chat|discuss|go over|sort|deal|explain|a word|get in touch|work|fix|settle|handle|resolve|arrange|figure)(?: [a-z]+){0,3} (?:to|2|with|w) ${EN_SOMEONE}`,
    'u',
  ),
  /(?<!(?:can t|cannot|couldn t|never|didn t|did not) )(?:get|bring|find)(?: me)? (?:someone|somebody)(?: [a-z]+)? (?:to|on|who|with|from)/u,
  /(?:want|need|like|prefer) (?:someone|somebody|one of your (?:people|team|staff)) to/u,
  /who (?:can|could|do|should|may|shall) i(?: actually| even| possibly)? (?:talk|speak|complain|write|turn|go|escalate|chat)(?: [a-z]+){0,3} (?:to|with)(?: |$)/u,
  /who(?:ever)? (?:handles|deals with|is in charge|runs|is responsible|manages|is above (?:you|the bot))(?: |$)/u,
  /(?:is there|are there) (?:anybody|anyone|somebody|someone|an adult|any adults)(?: [a-z]+){0,3} (?:with a brain|competent|i can talk to|i can speak to|in charge)/u,
  // English: being called, mailed, contacted
  /(?:^|(?:can|could|would|please|pls|plz|kindly|someone|somebody|anyone|you|u|team|staff|just) )(?:call|ring|phone|email|e mail|contact|text|reach) me(?: |$)/u,
  /(?:someone|somebody|anyone|anybody)(?: [a-z]+){0,5} (?:on the phone|by phone|over the phone)(?: |$)/u,
  /let (?:someone|somebody|a (?:living |real )?(?:person|human)) (?:read|look|check|handle|see|deal)/u,
  /(?:get in touch|reach out) (?:with|to) me/u,
  /give me a (?:ring|call|bell)/u,
  /(?:someone|somebody)(?: [a-z]+){0,3} (?:look into|take over|have a look at (?:this|it|my case)|take a look at (?:this|it|my case))/u,
  /(?:like|want|need|prefer|get|request|arrange|schedule|book) (?:a |an )?(?:phone call|call back|callback|phone conversation|video call|call from)/u,
  /(?:number|email|e mail|contact details) of (?:someone|somebody) who/u,
  // English: anyone there
  /^(?:hello |hi |hey )?(?:is|are) (?:there )?(?:anybody|anyone|somebody|someone)(?: actually| really| even)? (?:on the other end|on the line|behind this|reading|listening|alive|awake)/u,
  /(?:staffed|manned|answered|run) by (?:real )?(?:people|humans|persons|a person|a human)/u,
  // Any language: people, or just the bot? ("are there people working today or just you?")
  /(?:people|humans|staff|mensen|personeel|gens|humains|personnes)(?: [a-z]+){0,4} (?:or (?:just|only) (?:you|bots?|a bot|machines?)|of (?:alleen|enkel|maar) (?:jij|jou|u|bots?|een bot|robots?)|ou (?:juste|seulement|que) (?:vous|toi|des robots?|un robot))(?: |$)/u,
  // Dutch: talking with someone
  new RegExp(
    `met ${NL_SOMEONE}(?: [a-z]+){0,4} (?:praten|spreken|spreke|chatten|bespreken|overleggen|regelen|afspreken|oplossen|bekijken)(?: |$)`,
    'u',
  ),
  new RegExp(`(?:praat|spreek|chat|bespreek|overleg|regel|regelen|afspreken|oplossen|bekijken)(?: [a-z]+){0,3} met ${NL_SOMEONE}`, 'u'),
  new RegExp(`(?:aan|tegen) ${NL_SOMEONE}(?: [a-z]+){0,3} (?:uitleggen|uitleg|vertellen|vertel|kwijt)(?: |$)`, 'u'),
  new RegExp(`${NL_SOMEONE} (?:te )?(?:spreke|aan de lijn|aan de telefoon)(?: |$)`, 'u'),
  new RegExp(`(?:wil|wens|vraag|had graag|wil graag|zou graag) dat ${NL_SOMEONE}`, 'u'),
  /(?:bij|met|tot) wie (?:kan|moet|mag) ik(?: [a-z]+){0,3} (?:klagen|klacht|terecht|praten|spreken|wenden|richten)/u,
  /wie kan ik(?: [a-z]+){0,2} (?:aanspreken|contacteren|spreken|bereiken)(?: |$)/u,
  // Dutch: being called, mailed, contacted
  /(?:^|(?:kan|kunnen|kunt|wil|wilt|willen|graag|aub|iemand|jullie|u) )(?:me|mij)(?: [a-z]+){0,2} (?:bellen|belle|opbellen|terugbellen|mailen|contacteren)(?: |$)/u,
  /(?:^|(?:aub|graag|dan) )(?:bel|bereik|contacteer|mail) (?:me|mij)(?: |$)/u,
  /laat (?:iemand|een (?:echte )?(?:mens|medewerker|persoon))(?: |$)/u,
  /met (?:jullie|uw|de|het|een) [a-z]*(?:team|dienst|afdeling)(?: [a-z]+){0,2} (?:praten|spreken|chatten|bellen)(?: |$)/u,
  /(?:me|mij) (?:een )?(?:berichtje|mail|mailtje|e mail) sturen/u,
  /contact (?:met (?:mij|me) )?op(?: met (?:mij|me))? (?:nemen|neemt)|contact met (?:mij|me) opnemen/u,
  /(?:graag|wil|wens|liefst|liever)(?: [a-z]+){0,2} (?:een )?telefoontje|teruggebeld (?:worden|word)|telefonisch contact/u,
  /iemand(?: van (?:jullie|u))?(?: [a-z]+){0,3} (?:naar|hiernaar|ernaar|daarnaar) (?:kijken|kijkt)(?: |$)/u,
  // Dutch: anyone there
  /(?:leest|zit|werkt) (?:er|daar)(?: [a-z]+){0,4} iemand(?: |$)/u,
  // French: talking with someone
  new RegExp(
    `(?<!(?:ai|a|avons|avez|ont|deja) )(?:parler|parle|discuter|echanger|causer|m entretenir|expliquer|en parler|en discuter|regler|voir|traiter|gerer|resoudre)(?: [a-z]+){0,3} (?:a|avec|aupres d) ${FR_SOMEONE}`,
    'u',
  ),
  new RegExp(`(?:veux|voudrais|aimerais|souhaite|souhaiterais|prefere|prefererais) (?:que |qu )${FR_SOMEONE}`, 'u'),
  /a qui (?:je peux|puis je|dois je|je dois|est ce que je peux|m adresser|me plaindre|parler|ecrire)/u,
  /remonte[a-z]* (?:a|vers) (?:quelqu un|un superieur|un responsable|la direction)/u,
  // French: being called, mailed, contacted
  /(?:^|(?:peut|pouvez|pourriez|pourrait|veux|voudrais|aimerais|souhaite|qqn|quelqu un|vous|on) )(?:m appeler|me rappeler|me telephoner|me contacter|me recontacter|me joindre|m ecrire)(?: |$)/u,
  /qu on me (?:telephone|rappelle|appelle|contacte|recontacte)|etre (?:re)?contactee?|etre appelee?|(?:un )?appel telephonique/u,
  /m envoyer un (?:mail|e mail|courriel|message)/u,
  /(?:rappelez|appelez|telephonez|contactez|recontactez|joignez) moi/u,
  /faites (?:lire|voir|regarder|traiter)(?: [a-z]+){0,3} par/u,
  /(?:peut|pouvez|pourriez|pourrait|veux|voudrais|aimerais|souhaite)(?: [a-z]+){0,4} (?:au (?:tel|telephone|bout du fil)|de vive voix)(?: |$)/u,
  // French: anyone there
  /quelqu un (?:lit|me lit|m entend|de vivant)(?: |$)|il y a (?:encore )?(?:des gens|des humains|du monde) qui (?:travaillent|lisent|repondent)/u,
];

/** Each rule from the start of a word ("forget someone" is not "get someone"). */
const WORD_RULES = RULES.map((r) => new RegExp(`(?<![a-z0-9])(?:${r.source})`, r.flags));

/** A clause that says no: "please don't call me", "bel me aub niet", "ne m'appelez pas". */
const NEGATED = /(?:^| )(?:not|don t|do not|never|niet|nooit|ne|n|pas|jamais)(?: |$)/u;

/** The spans of the text's clauses that ask for a person in words no single flows phrase holds. */
export function someoneAsked(text: string): string[] {
  const spans: string[] = [];
  for (const raw of text.split(/[,.;:!?()\n]+/u)) {
    const clause = foldText(raw).replace(/ 2 /gu, ' to ');
    if (!clause || NEGATED.test(clause)) continue;
    for (const rule of WORD_RULES) {
      const m = rule.exec(clause);
      if (m) spans.push(m[0].trim());
    }
  }
  return spans;
}

/** Talking about a subject with nobody named: "I want to speak about a discount", "ik wil praten over mijn factuur". */
const TOPIC = new RegExp(
  [
    '(?:want to|like to|wish to|need to|can i|could i|may i) (?:speak|talk|chat) (?:about|regarding) ',
    '|(?:wil|wou|graag|kan ik|mag ik)(?: even)? (?:praten|spreken|het hebben) over ',
    '|(?:veux|voudrais|aimerais|souhaite|peux|puis je) (?:parler|discuter) (?:de|du|des|d) ',
  ].join(''),
  'u',
);
const SOMEBODY =
  /(?:^| )(?:someone|somebody|anyone|anybody|person|people|human|iemand|mens|persoon|quelqu un|qqn|personne|humain|equipe|team)(?: |$)/u;
/** Work with the company: "how do I apply for a job as an agent?", "solliciteren als klantenadviseur", "postuler". */
const JOB =
  /(?:^| )(?:job|jobs|vacancy|vacancies|hiring|apply|applying|career|careers|vacature|vacatures|solliciteren|sollicitatie|postuler|candidature|recrutez|recrutement|emploi)(?: |$)/u;

/** Which languages are spoken: "spreken jullie ook Frans?", "do you speak English?", "vous parlez anglais ?". */
const LANGUAGE_SPOKEN =
  /(?:^| )(?:speak|speaks|spreken|spreekt|spreek|parlez|parle|parlent)(?: [a-z]+){0,2} (?:english|engels|anglais|french|frans|francais|dutch|nederlands|neerlandais|flemish|vlaams|flamand|german|duits|allemand|spanish|spaans|espagnol)(?: |$)/u;
/** The customer about to do something themselves: "hmm let me check", "even kijken", "laissez-moi vérifier". */
const SELF =
  /(?:^| )(?:let me (?:check|see|look|think|find|search|try|verify|ask)|laat me (?:even )?(?:kijken|zoeken|denken|checken)|even (?:kijken|zoeken|checken)|ik kijk even|(?:laissez|laisse) moi (?:verifier|chercher|regarder|voir|reflechir)|je (?:regarde|verifie|cherche))(?: |$)/u;

/** Someone else to reach: "how do I contact the seller?", "hoe bereik ik de koerier?", "comment joindre le transporteur ?". */
const THIRD_PARTY =
  /(?:^| )(?:contact|reach|call|email|phone|bellen|bereiken|contacteren|bereik|contact met|contacter|joindre|appeler) (?:the|de|het|le|la|les|l) (?:seller|sellers|vendor|manufacturer|brand|courier|carrier|driver|postman|verkoper|fabrikant|merk|koerier|bezorger|postbode|vendeur|fabricant|marque|transporteur|livreur|facteur)(?: |$)/u;

/**
 * A contact told about: "I talked to your colleague on Monday", "ik heb met jullie collega gesproken", "j'ai eu
 * quelqu'un", "quelqu'un a sonné".
 */
const EARLIER = new RegExp(
  [
    '(?:^| )(?:i|we|i ve|i have|i had|we ve|we have|my [a-z]+)(?: [a-z]+){0,2} (?:talked|spoke|spoken|chatted|called|phoned|rang|emailed|contacted)(?: |$)',
    '|(?:^| )(?:ik|we|wij|mijn [a-z]+) (?:heb|hebben|had|hadden|heeft)(?: [a-z]+){0,5} (?:gesproken|gebeld|gechat|gemaild|gecontacteerd|getelefoneerd)(?: |$)',
    '|(?:^| )(?:j ai|nous avons|on a|mon [a-z]+ a|ma [a-z]+ a)(?: deja)? (?:eu|parle|appele|telephone|contacte|ecrit|discute)(?: |$)',
    // someone who did something: "someone rang the bell", "iemand belde aan", "quelqu'un a sonné"
    '|(?:^| )(?:someone|somebody|iemand|quelqu un) (?:rang|called|came|knocked|left|took|signed|belde|kwam|was|heeft|a|est)(?: |$)',
  ].join(''),
  'u',
);
/** Words of a request: "can", "I'd like", "please", "kan", "graag", "pourriez", "svp". */
const REQUEST =
  /(?:^| )(?:can|could|would|want|need|please|pls|plz|let me|get me|give me|put me|i d like|kan|kun|kunt|kunnen|wil|wilt|graag|aub|alsjeblieft|alstublieft|mag ik|peux|pouvez|pourriez|pourrait|veux|voudrais|aimerais|souhaite|svp|s il vous plait|passez|mettez|donnez)(?: |$)/u;

/** Whether the folded text holds words of a request ("can", "please", "kan", "graag", "pourriez", "svp"). */
export function asksSomething(folded: string): boolean {
  return REQUEST.test(folded);
}

/**
 * Whether a message the NLU may hear as a request for a person is about something else: a subject to talk about with
 * nobody named ("I want to speak about a discount"), a job with the company ("apply as a customer service agent"),
 * the languages spoken ("spreken jullie ook Frans?"), the customer checking something themselves ("let me check"),
 * someone else to reach ("how do I contact the seller?"), or a contact told about with nothing asked ("I talked to your
 * colleague on Monday, thanks again").
 */
export function aboutSomethingElse(text: string): boolean {
  const folded = foldText(text);
  return (
    JOB.test(folded) ||
    LANGUAGE_SPOKEN.test(folded) ||
    SELF.test(folded) ||
    (TOPIC.test(folded) && !SOMEBODY.test(folded)) ||
    THIRD_PARTY.test(folded) ||
    (EARLIER.test(folded) && !REQUEST.test(folded))
  );
}
