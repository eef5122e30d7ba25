// The flows' regular expressions (intents' patterns, questions' patterns) run on RE2 (re2js, pure JS): matching
// takes time linear in the text, so no pattern written in the flow file and no customer message can freeze the
// process (a backtracking engine took seconds on `^(\w+\s?)+$` and 27 letters). RE2 has no backreferences and no
// lookaround: such a pattern is refused when the flows load, with the pattern and its place named.
import { RE2JS } from 're2js';
import { stripAccents } from '../shared/fold-text.js';

/** A compiled flows pattern: case-insensitive, accents stripped from the pattern (the text is stripped by the caller). */
export interface LinearPattern {
  /** The match and its groups (`[0]` the whole match, `[1]` the first group, undefined when it took no part), or null. */
  exec(text: string): readonly (string | undefined)[] | null;
}

/** JavaScript's `\uXXXX` and `\u{X…}` escapes written as RE2's `\x{…}`, so a pattern written for JS keeps its meaning. */
function toRe2Syntax(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c !== '\\' || i + 1 >= source.length) {
      out += c;
      continue;
    }
    const next = source[i + 1];
    const braced = /^u\{([0-9a-fA-F]{1,6})\}/.exec(source.slice(i + 1));
    const four = /^u([0-9a-fA-F]{4})/.exec(source.slice(i + 1));
    const hex = braced?.[1] ?? four?.[1];
    if (hex !== undefined) {
      out += `\\x{${hex}}`;
      i += (braced ?? four)?.[0].length ?? 0;
    } else {
      out += `\\${next}`;
      i++;
    }
  }
  return out;
}

function compileNow(source: string): LinearPattern {
  const re = RE2JS.compile(toRe2Syntax(stripAccents(source)), RE2JS.CASE_INSENSITIVE);
  return {
    // The capture-free test runs on RE2's DFA; groups are computed only for a text that matches.
    exec: (text) => (re.test(text) ? re.exec(text) : null),
  };
}

/** Compiled patterns by source: a question's pattern is used on every answer. Bounded: emptied when full. */
const compiled = new Map<string, LinearPattern>();
const COMPILED_MAX_ENTRIES = 1024;

/** The pattern compiled for RE2; throws with RE2's reason when it cannot be (see `patternProblem`). */
export function linearPattern(source: string): LinearPattern {
  let pattern = compiled.get(source);
  if (pattern === undefined) {
    pattern = compileNow(source);
    if (compiled.size >= COMPILED_MAX_ENTRIES) compiled.clear();
    compiled.set(source, pattern);
  }
  return pattern;
}

/** Why a flows pattern cannot run in linear time (backreference, lookaround, bad syntax), or undefined when it can. */
export function patternProblem(source: string): string | undefined {
  try {
    linearPattern(source);
    return undefined;
  } catch (e) {
    const reason = (e as Error).message.replace(/^error parsing regexp: /, '');
    return `not a regular expression the bridge can run in linear time (RE2 syntax: no backreferences, no lookaround): ${JSON.stringify(source)}: ${reason}`;
  }
}
