import { invalidParameter } from './sim-error.js';

export type Predicate<T> = (item: T) => boolean;
/** Builds the test of one `field:value` clause; returns undefined when the value is not allowed. */
export type ClauseBuilder<T> = (value: string) => Predicate<T> | undefined;

type Token = { kind: 'lparen' | 'rparen' | 'and' | 'or' | 'not' } | { kind: 'term'; field: string; value: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const re = /\s*(?:(\()|(\))|([A-Za-z_]+):(?:"([^"]*)"|([^\s()"]+))|(\S+))/gy;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0].trim() === '') break;
    if (m[1]) tokens.push({ kind: 'lparen' });
    else if (m[2]) tokens.push({ kind: 'rparen' });
    else if (m[3]) tokens.push({ kind: 'term', field: m[3].toLowerCase(), value: m[4] ?? m[5] ?? '' });
    else {
      const word = (m[6] ?? '').toUpperCase();
      if (word === 'AND' || word === '&&') tokens.push({ kind: 'and' });
      else if (word === 'OR' || word === '||') tokens.push({ kind: 'or' });
      else if (word === 'NOT') tokens.push({ kind: 'not' });
      else throw invalidParameter(`filter: unexpected '${m[6]}' (expected field:value, AND, OR, NOT or parentheses)`);
    }
  }
  return tokens;
}

/**
 * Parses a Lucene-like filter (`field:value`, AND, OR, NOT, parentheses; adjacent clauses mean AND)
 * into a predicate. Any syntax error or unsupported field is a 400.
 */
export function parseFilter<T>(text: string, fields: Record<string, ClauseBuilder<T>>): Predicate<T> {
  const tokens = tokenize(text);
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];

  const parseOr = (): Predicate<T> => {
    const parts = [parseAnd()];
    while (peek()?.kind === 'or') {
      pos++;
      parts.push(parseAnd());
    }
    return parts.length === 1 ? parts[0]! : (item) => parts.some((p) => p(item));
  };
  const parseAnd = (): Predicate<T> => {
    const parts = [parseUnary()];
    for (;;) {
      const next = peek();
      if (next?.kind === 'and') pos++;
      else if (!next || next.kind === 'or' || next.kind === 'rparen') break;
      parts.push(parseUnary());
    }
    return parts.length === 1 ? parts[0]! : (item) => parts.every((p) => p(item));
  };
  const parseUnary = (): Predicate<T> => {
    const token = tokens[pos++];
    if (!token) throw invalidParameter('filter: unexpected end of expression');
    if (token.kind === 'not') {
      const inner = parseUnary();
      return (item) => !inner(item);
    }
    if (token.kind === 'lparen') {
      const inner = parseOr();
      if (tokens[pos++]?.kind !== 'rparen') throw invalidParameter('filter: missing closing parenthesis');
      return inner;
    }
    if (token.kind !== 'term') throw invalidParameter(`filter: unexpected ${token.kind.toUpperCase()}`);
    const build = Object.hasOwn(fields, token.field) ? fields[token.field] : undefined;
    if (!build) {
      throw invalidParameter(`filter: unsupported field '${token.field}' (supported: ${Object.keys(fields).join(', ')})`);
    }
    const predicate = build(token.value);
    if (!predicate) throw invalidParameter(`filter: value '${token.value}' is not allowed for '${token.field}'`);
    return predicate;
  };

  if (tokens.length === 0) return () => true;
  const predicate = parseOr();
  if (pos < tokens.length) throw invalidParameter('filter: unexpected closing parenthesis');
  return predicate;
}
