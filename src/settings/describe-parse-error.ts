/**
 * Parser messages quote what they failed to read (V8's JSON errors show the text around the fault, YAML's show
 * the line), and a settings file holds tokens: a problem is told by file, line, column and kind, never content.
 */

const JSON_PROBLEMS: ReadonlyArray<[RegExp, string]> = [
  [/Unexpected end/i, 'the text ends too early'],
  [/Unterminated string/i, 'a string is not closed'],
  [/Bad control character/i, 'a control character inside a string'],
  [/Bad escaped character|Bad Unicode escape/i, 'a bad escape inside a string'],
  [/Expected property name/i, 'a property name is missing'],
  [/Expected ',' or/i, 'a comma or a closing bracket is missing'],
  [/Expected ':'/i, 'a colon is missing'],
  [/Unexpected non-whitespace/i, 'something follows the end of the JSON value'],
  [/Unexpected token/i, 'an unexpected character'],
];

/** Line and column (1-based) of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

/** "line 3, column 14: a string is not closed" for a JSON.parse failure on `text`. */
export function describeJsonError(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : '';
  const problem = JSON_PROBLEMS.find(([pattern]) => pattern.test(message))?.[1] ?? 'a syntax error';
  const position = /at position (\d+)/.exec(message);
  if (!position) return `not valid JSON: ${problem}`;
  const { line, column } = lineAndColumn(text, Number(position[1]));
  return `line ${line}, column ${column}: not valid JSON: ${problem}`;
}

/** "line 2, column 5: bad indent" for a YAML parse failure, from its code and position only. */
export function describeYamlError(error: unknown): string {
  const e = error as { code?: unknown; linePos?: Array<{ line: number; col: number }> };
  const problem = typeof e.code === 'string' ? e.code.toLowerCase().replace(/_/g, ' ') : 'a syntax error';
  const at = e.linePos?.[0];
  return at ? `line ${at.line}, column ${at.col}: not valid YAML: ${problem}` : `not valid YAML: ${problem}`;
}

/** The 1-based line of a file on which `key` is set (`KEY=`, `KEY:` or `"KEY":`), if it can be found. */
export function lineOfKey(text: string, key: string): number | undefined {
  const pattern = new RegExp(`^\\s*(?:export\\s+)?["']?${key}["']?\\s*[=:]`);
  const index = text.split('\n').findIndex((l) => pattern.test(l));
  return index < 0 ? undefined : index + 1;
}
