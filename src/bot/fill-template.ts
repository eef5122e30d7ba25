// Variables in operator-written texts: {name}, collected values, business hours phrases.

const VARIABLE = /\{([a-zA-Z_][a-zA-Z0-9_.]*)\}/g;

/** Names of the variables a text uses. */
export function templateVariables(text: string): string[] {
  return [...text.matchAll(VARIABLE)].map((m) => m[1] ?? '');
}

const EMPTY = '\uE000'; // a private-use character: never in operator text

/**
 * Replaces each {variable}; an unknown or empty one becomes the empty string and the spacing around it is
 * tidied ("Hi {name}!" → "Hi!"). Spacing the author wrote stays: French puts a space before "!" and "?".
 */
export function fillTemplate(text: string, vars: Readonly<Record<string, string | undefined>>): string {
  return text
    .replace(VARIABLE, (_, name: string) => vars[name] || EMPTY)
    .replace(/[ \t]*\uE000[ \t]*(?=[,.!?])/g, '')
    .replaceAll(EMPTY, '')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}
