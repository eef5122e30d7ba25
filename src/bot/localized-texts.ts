// Texts per language. In the flow file any text may be a string or a map { en: …, nl: …, fr: … }; word lists
// (keywords, phrases, patterns) may be maps of lists. Before the schema sees the file, every such map is
// flattened to the default language's text, and the other languages' texts are kept aside by path, so the
// rest of the brain works on plain strings (`localizeFlows` swaps them in for one conversation).
import type { FlowPath, ReferenceProblem } from './flow-references.js';

/** A language code as people write them: `en`, `nl`, `fr`, `pt-BR`. */
export const LANGUAGE_CODE = /^[a-z]{2}(-[A-Za-z]{2,4})?$/;

export interface Translation {
  path: FlowPath;
  value: string;
}

/** The texts of each non-default language, by where they go in the flows. */
export type Translations = Readonly<Record<string, readonly Translation[]>>;

export interface Extracted {
  /** The file's content with every language map flattened to the default language. */
  flat: unknown;
  translations: Translations;
  problems: ReferenceProblem[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The languages the file declares: the default first, then the others (unknown shapes are the schema's to report). */
export function declaredLanguages(raw: unknown): { defaultLanguage: string; languages: string[] } {
  const section = isRecord(raw) && isRecord(raw.languages) ? raw.languages : {};
  const def = typeof section.default === 'string' && LANGUAGE_CODE.test(section.default) ? section.default : 'en';
  const more = Array.isArray(section.supported)
    ? section.supported.filter((l): l is string => typeof l === 'string' && LANGUAGE_CODE.test(l))
    : [];
  return { defaultLanguage: def, languages: [...new Set([def, ...more])] };
}

/** A map whose keys all look like language codes and whose values are all texts, or all lists of texts. */
function languageMap(v: unknown): 'text' | 'list' | undefined {
  if (!isRecord(v)) return undefined;
  const entries = Object.entries(v);
  if (entries.length === 0 || !entries.every(([k]) => LANGUAGE_CODE.test(k))) return undefined;
  if (entries.every(([, x]) => typeof x === 'string')) return 'text';
  if (entries.every(([, x]) => isStringList(x))) return 'list';
  return undefined;
}

/** Lists of example utterances, kept per language (not merged like keywords). */
const EXAMPLE_KEYS = new Set(['examples', 'out_of_scope']);

export function extractTranslations(raw: unknown): Extracted {
  const { defaultLanguage, languages } = declaredLanguages(raw);
  const translations: Record<string, Translation[]> = Object.fromEntries(languages.slice(1).map((l) => [l, []]));
  const problems: ReferenceProblem[] = [];

  const walk = (v: unknown, path: FlowPath): unknown => {
    const kind = languageMap(v);
    // Examples stay per language (the NLU trains one model per language); a language without any is allowed.
    if (EXAMPLE_KEYS.has(String(path[path.length - 1])) && kind === 'list' && isRecord(v)) {
      for (const k of Object.keys(v)) {
        if (!languages.includes(k)) {
          problems.push({ path: [...path, k], message: `language "${k}" is not declared (languages: ${languages.join(', ')})` });
        }
      }
      return v;
    }
    if (kind && isRecord(v)) {
      for (const k of Object.keys(v)) {
        if (!languages.includes(k)) {
          problems.push({ path: [...path, k], message: `language "${k}" is not declared (languages: ${languages.join(', ')})` });
        }
      }
      if (kind === 'list') {
        // Word lists of every language count in every conversation: a Dutch customer who types an English word is understood.
        return [...new Set(Object.values(v).flatMap((x) => x as string[]))];
      }
      for (const l of languages) {
        if (v[l] === undefined) problems.push({ path, message: `no text in language "${l}" (declared under languages)` });
      }
      const base = v[defaultLanguage];
      for (const l of languages.slice(1)) {
        const t = v[l];
        if (typeof t === 'string') translations[l]?.push({ path, value: t });
      }
      return typeof base === 'string' ? base : Object.values(v)[0];
    }
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, i]));
    if (isRecord(v)) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, [...path, k])]));
    }
    return v;
  };

  const flat = walk(raw, []);
  return { flat, translations, problems };
}

function setAt(target: unknown, path: FlowPath, value: string): void {
  let node = target as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) {
    const next = node[path[i] as string | number];
    if (next === null || typeof next !== 'object') return;
    node = next as Record<string | number, unknown>;
  }
  const last = path[path.length - 1];
  if (last !== undefined && typeof node[last] === 'string') node[last] = value;
}

const cache = new WeakMap<object, Map<string, object>>();

/** The flows as a conversation in `language` sees them: that language's texts, the default's where it has none. */
export function localizeFlows<F extends { translations?: Translations | undefined }>(flows: F, language: string): F {
  const list = flows.translations?.[language];
  if (!list || list.length === 0) return flows;
  let byLang = cache.get(flows);
  if (!byLang) {
    byLang = new Map();
    cache.set(flows, byLang);
  }
  const hit = byLang.get(language);
  if (hit) return hit as F;
  const copy = structuredClone(flows);
  for (const t of list) setAt(copy, t.path, t.value);
  byLang.set(language, copy);
  return copy;
}
