// The embedded NLU: an intent classifier per language (NLP.js: stemming, case and accent folding, a small neural
// network), trained at start from the flows' example utterances. Nothing is downloaded and no model is written to
// disk; the same examples train the same model. Each message is read in every trained language: the language that
// knows most of its words gives the intent; negated clauses are left out when another clause says what is wanted.
// Boundary: the one place that knows NLP.js.
import { containerBootstrap, type Container } from '@nlpjs/core';
import { LangEn } from '@nlpjs/lang-en';
import { LangFr } from '@nlpjs/lang-fr';
import { LangNl } from '@nlpjs/lang-nl';
import { Language } from '@nlpjs/language-min';
import { Nlp } from '@nlpjs/nlp';
import { blankRefused, withoutNegated } from '../shared/negation.js';
import { correctTypos, wordsOf } from './spelling.js';
import { emojiAsWords } from './emoji.js';
import { soundsAngry } from './anger.js';
import { clausesOf, combineClauses, LONG_WORDS, wordCount } from './clauses.js';
import { wordLanguages } from './word-languages.js';
import type { Understander, Understanding } from './understanding.js';

/** Example utterances by intent, then by language. */
export interface TrainingSet {
  readonly intents: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  /** Intents that yield to another one said in the same message (a thanks with a question). */
  readonly yielding?: readonly string[];
}

export interface EmbeddedNlu extends Understander {
  /** The languages a model was trained for (those with examples and a stemmer here). */
  readonly languages: readonly string[];
  readonly examples: number;
  readonly trainingMs: number;
}

/** The languages NLP.js reads here; examples in others are left out (the keywords still count). */
export const NLU_LANGUAGES: Readonly<Record<string, unknown>> = { en: LangEn, nl: LangNl, fr: LangFr };

interface Classification {
  intent: string;
  score: number;
}

interface NlpInstance {
  settings: Record<string, unknown>;
  addLanguage(locales: string[]): void;
  addDocument(locale: string, utterance: string, intent: string): void;
  train(): Promise<unknown>;
  getSentiment(locale: string, text: string): Promise<{ sentiment?: { vote?: string; score?: number } } | undefined>;
}

interface NluManager {
  process(locale: string, text: string): Promise<{ classifications?: Classification[] }>;
  domainManagers?: Record<string, { domains?: Record<string, { cache?: { results?: Record<string, unknown> } }> }>;
}

/**
 * NLP.js keeps every text it classified (its tokens) for an hour: a running bridge would hold each customer message,
 * and every clause and variant read, that long. Forgotten after each reading (a repeated text costs a few µs more).
 */
function forgetUtterances(manager: NluManager, lang: string): void {
  for (const domain of Object.values(manager.domainManagers?.[lang]?.domains ?? {})) {
    if (domain.cache?.results) domain.cache.results = {};
  }
}

/** Stop words that ask for a person on their own ("iemand daar?", "someone please"): kept in the content check. */
const SOMEONE = new Set(['someone', 'somebody', 'anyone', 'anybody', 'iemand', 'quelqu', "quelqu'un", 'quelquun']);
/** NLP.js's sentiment counts as anger at or below this score (its lexicons call "vous pouvez me passer" -0.2). */
const NEGATIVE_SCORE = -0.4;
/** "Nobody answers", "niemand helpt me", "personne ne répond": a complaint, not a request for a person ("une personne" is one). */
const NOBODY =
  /(?<![\p{L}])(?:nobody|no one|no-one|niemand|personne(?= ne| n'| n’)|(?<=(?<![\p{L}])(?:ne|n'|n’)\s?\S*\s)personne)(?![\p{L}])/iu;

interface Stemmer {
  tokenizeAndStem(text: string, keepStops?: boolean): string[];
}

interface Guesser {
  guess(text: string, allowList: readonly string[]): Array<{ alpha2: string; score: number }>;
}

const MAX_TEXT = 2000;
/** The intent whose reading is checked on content words: a request for a person (the brain's `_person`). */
export const CHECKED_INTENT = '_person';
const NONE = 'None';
/** The brain's names for "none of the flows' intents" and "never mind": they yield to an intent said beside them. */
const RESERVED_MINOR = ['_none', '_cancel'];
/** The share of a request's content words the examples must know for it to stand where the classifier reads none. */
const KNOWN_CONTENT = 0.5;
/** A short message read as an intent this surely is not read clause by clause. */
const SURE = 0.5;
/** A long message's last clauses that are read (the request comes last; a very long text costs no more). */
const MAX_CLAUSES = 8;
/** Words a clause must keep, once its refused part is left out, to be read at all. */
const UNREFUSED_WORDS = 3;

/** A clause without its refused part, when enough is left ("I'd like my money back, not a voucher"); else none. */
function unrefused(clause: string): string | undefined {
  const kept = blankRefused(clause);
  if (kept === clause) return clause;
  const rest = kept.replace(/\s+/gu, ' ').trim();
  return wordCount(rest) >= UNREFUSED_WORDS ? rest : undefined;
}
const quiet = { info() {}, warn() {}, error() {}, debug() {}, log() {}, trace() {} };

function bootstrap(languages: readonly string[]): { nlp: NlpInstance; container: Container } {
  const container = containerBootstrap();
  container.register('logger', quiet, true);
  container.use(Nlp);
  for (const l of languages) container.use(NLU_LANGUAGES[l]);
  // NLP.js's own defaults for every language, with its training log off.
  container.registerConfiguration(
    'nlu-??',
    {
      keepStopwords: true,
      nonefeatureValue: 1,
      nonedeltaMultiplier: 1.2,
      spellCheck: false,
      spellCheckDistance: 1,
      filterZeros: true,
      log: false,
    },
    true,
  );
  const nlp = container.get('nlp') as NlpInstance;
  nlp.settings.autoSave = false;
  nlp.settings.autoLoad = false;
  nlp.settings.log = false;
  return { nlp, container };
}

/** Trains one model per language that has examples. Deterministic: the same set trains the same model. */
export async function trainEmbeddedNlu(set: TrainingSet, clock: () => number = () => performance.now()): Promise<EmbeddedNlu> {
  const started = clock();
  const byLanguage = new Map<string, Array<[string, string]>>();
  for (const intent of Object.keys(set.intents).sort()) {
    const perLanguage = set.intents[intent] ?? {};
    for (const lang of Object.keys(perLanguage).sort()) {
      if (NLU_LANGUAGES[lang] === undefined) continue;
      for (const text of perLanguage[lang] ?? []) {
        if (!text.trim()) continue;
        const list = byLanguage.get(lang) ?? [];
        list.push([text, intent]);
        byLanguage.set(lang, list);
      }
    }
  }
  const languages = [...byLanguage.keys()].sort();
  const yielding = new Set(set.yielding ?? []);
  const minor = new Set([NONE, ...RESERVED_MINOR, ...yielding]);
  const { nlp, container } = bootstrap(languages);
  const vocabulary = new Map<string, Set<string>>();
  let examples = 0;
  if (languages.length > 0) {
    nlp.addLanguage(languages);
    for (const lang of languages) {
      const stemmer = container.get(`stemmer-${lang}`) as Stemmer;
      const words = new Set<string>();
      for (const [text, intent] of byLanguage.get(lang) ?? []) {
        nlp.addDocument(lang, text, intent);
        for (const w of stemmer.tokenizeAndStem(text, true)) words.add(w);
        examples += 1;
      }
      vocabulary.set(lang, words);
    }
    await nlp.train();
  }
  const guesser = new Language() as Guesser;
  const stemmers = new Map(languages.map((l) => [l, container.get(`stemmer-${l}`) as Stemmer]));
  const spelling = new Map(languages.map((l) => [l, wordsOf((byLanguage.get(l) ?? []).map(([text]) => text))]));
  const wordVote = wordLanguages(new Map(languages.map((l) => [l, (byLanguage.get(l) ?? []).map(([text]) => text)])));

  /** The share of the text's words each language's examples know. */
  const coverage = (text: string): Record<string, number> => {
    const scores: Record<string, number> = {};
    for (const lang of languages) {
      const words = (stemmers.get(lang)?.tokenizeAndStem(text, true) ?? []).filter((w) => /\p{L}/u.test(w));
      const known = vocabulary.get(lang);
      scores[lang] = words.length === 0 ? 0 : words.filter((w) => known?.has(w)).length / words.length;
    }
    return scores;
  };

  /**
   * Per language: the mean of the words known (`known`, the coverage) and a guess, itself the mean of NLP.js's
   * letter-trigram guess and of how often each language's examples use the words when they use any (the best one of
   * each is 1; trigrams tell nothing on one or two words, "merci" is French far more often than Dutch).
   */
  const combinedScores = (text: string, known: Record<string, number>): Record<string, number> => {
    const guessed = new Map<string, number>();
    for (const g of guesser.guess(text, languages)) guessed.set(g.alpha2, g.score);
    const used = wordVote(text);
    const guess = (l: string): number => (used ? ((guessed.get(l) ?? 0) + (used[l] ?? 0)) / 2 : (guessed.get(l) ?? 0));
    return Object.fromEntries(languages.map((l) => [l, ((known[l] ?? 0) + guess(l)) / 2]));
  };

  /** The text without the language's stop words (empty when nothing else is left). */
  const contentWords = (lang: string, text: string): string => {
    const tokenizer = container.get(`tokenizer-${lang}`) as { tokenize(t: string, normalize?: boolean): string[] } | undefined;
    const stopwords = container.get(`stopwords-${lang}`) as { removeStopwords(tokens: string[]): string[] } | undefined;
    if (!tokenizer || !stopwords) return text;
    const tokens = tokenizer.tokenize(emojiAsWords(text, lang), true);
    return tokens.filter((t) => SOMEONE.has(t) || stopwords.removeStopwords([t]).length > 0).join(' ');
  };

  const nluManager = (nlp as unknown as { nluManager: NluManager }).nluManager;
  const classify = async (lang: string, text: string): Promise<Classification[]> => {
    const words = spelling.get(lang);
    const plain = emojiAsWords(text, lang);
    // The classifier alone (NLP.js's whole pipeline would also run entities, sentiment and answers on every clause).
    const r = await nluManager.process(lang, words ? correctTypos(plain, words) : plain);
    forgetUtterances(nluManager, lang);
    return (r.classifications ?? []).filter((c) => c.intent !== NONE && c.score > 0).sort((a, b) => b.score - a.score);
  };

  /** Anger in the customer's words (listed), or NLP.js's clearly negative sentiment; else its vote. */
  const sentimentOf = async (lang: string, text: string, intent: string | undefined): Promise<Understanding['sentiment']> => {
    // Insistent marks are not anger in a thanks ("thank you!!!"); a sarcastic one has its own words ("thanks for nothing").
    if (soundsAngry(text, { punctuation: intent === undefined || !yielding.has(intent) })) return 'negative';
    const s = (await nlp.getSentiment(lang, text))?.sentiment;
    if (s?.vote === 'negative') return (s.score ?? 0) <= NEGATIVE_SCORE ? 'negative' : 'neutral';
    return s?.vote === 'positive' || s?.vote === 'neutral' ? s.vote : undefined;
  };

  /**
   * A request for a person must rest on words that say so, not on "can I", "ik wil graag een", "je voudrais": read
   * without the function words (but with "someone", "iemand", "quelqu'un"), the request must still be there; and
   * "nobody answers", "niemand helpt me", "personne ne répond" are complaints, not requests.
   */
  const personChecked = async (lang: string, text: string, ranked: Classification[]): Promise<Classification[]> => {
    if (ranked[0]?.intent !== CHECKED_INTENT) return ranked;
    const content = contentWords(lang, text);
    const c = content ? await classify(lang, content) : undefined;
    if (NOBODY.test(text)) return (c ?? []).filter((r) => r.intent !== CHECKED_INTENT);
    if (c?.[0]?.intent === CHECKED_INTENT) return ranked;
    // Content words the classifier reads as nothing, but the examples know ("verbind door helpdesk"), say nothing
    // against the request; words they do not know ("nice one", "you're the best") are no request.
    if (content && c?.[0] === undefined && (coverage(content)[lang] ?? 0) >= KNOWN_CONTENT) return ranked;
    return (c ?? []).filter((r) => r.intent !== CHECKED_INTENT);
  };

  /** One text read in one language: negated clauses left out when another says what is wanted, a person checked. */
  const readIn = async (lang: string, text: string, ranked?: Classification[]): Promise<Classification[]> => {
    let out = ranked ?? (await classify(lang, text));
    const kept = withoutNegated(text);
    if (kept !== text) {
      const c = await classify(lang, kept);
      if ((c[0]?.score ?? 0) >= 0.5) out = c;
    }
    return personChecked(lang, kept, out);
  };

  const read = async (input: string): Promise<Understanding | undefined> => {
    const text = input.trim().slice(0, MAX_TEXT);
    if (!text || languages.length === 0) return undefined;
    const scores = coverage(text);
    // The language knowing most of the words reads it; on a tie, the one most sure of an intent.
    let best: { lang: string; ranked: Classification[] } | undefined;
    const most = Math.max(...languages.map((l) => scores[l] ?? 0));
    // Only the languages that know most of the words are asked (one, mostly: a third of the time).
    for (const lang of languages.filter((l) => (scores[l] ?? 0) === most)) {
      const ranked = await classify(lang, text);
      const better =
        !best ||
        (scores[lang] ?? 0) > (scores[best.lang] ?? 0) ||
        ((scores[lang] ?? 0) === (scores[best.lang] ?? 0) && (ranked[0]?.score ?? 0) > (best.ranked[0]?.score ?? 0));
      if (better) best = { lang, ranked };
    }
    if (!best) return undefined;
    const lang = best.lang;
    const whole = await readIn(lang, text, best.ranked);
    // The clauses are read when the message is long, or when the whole is only a thanks, none or unsure.
    const long = wordCount(text) >= LONG_WORDS;
    const settled = !long && whole[0] !== undefined && !minor.has(whole[0].intent) && whole[0].score >= SURE;
    // A clause that refuses something ("I don't want a refund", "geen medewerker nodig") says what is not wanted; what
    // it says before the refusal still counts when there is enough of it ("we'd like our money back because we don't
    // want a replacement").
    const clauses = settled
      ? []
      : clausesOf(text)
          .map((c) => unrefused(c))
          .filter((c): c is string => c !== undefined)
          .slice(-MAX_CLAUSES);
    // One clause is worth reading alone when the rest was too short to count ("Merci ! Et vous fermez quand ?").
    const apart = clauses.length >= 2 || (clauses.length === 1 && wordCount(clauses[0] ?? '') < wordCount(text));
    const parts = apart ? await Promise.all(clauses.map(async (c) => ({ ranked: await readIn(lang, c), words: wordCount(c) }))) : [];
    const ranked = combineClauses(whole, parts, { long, person: CHECKED_INTENT, minor });
    const [top, next] = ranked;
    const sentiment = await sentimentOf(lang, text, top?.intent);
    // The language scores are computed when first read: the brain reads them only while the conversation's language
    // is not settled (a letter-trigram guess per message was a tenth of the reading's time; issue 28).
    let combined: Record<string, number> | undefined;
    return {
      source: 'embedded',
      intent: top?.intent ?? NONE,
      confidence: top?.score ?? 0,
      ...(next ? { runnerUp: { intent: next.intent, confidence: next.score } } : {}),
      entities: [],
      get languages(): Record<string, number> {
        combined ??= combinedScores(text, scores);
        return combined;
      },
      ...(sentiment ? { sentiment } : {}),
    };
  };

  return {
    languages,
    examples,
    trainingMs: clock() - started,
    async parse(text) {
      try {
        return await read(text);
      } catch {
        return undefined;
      }
    },
  };
}
