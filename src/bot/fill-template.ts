// Variables in operator-written texts: {name}, collected values, business hours phrases.

const VARIABLE = /\{([a-zA-Z_][a-zA-Z0-9_.]*)\}/g;

/** Names of the variables a text uses. */
export function templateVariables(text: string): string[] {
  return [...text.matchAll(VARIABLE)].map((m) => m[1] ?? '');
}

/** Replaces each {variable}; an unknown or empty one becomes the empty string and the spacing is tidied. */
export function fillTemplate(text: string, vars: Readonly<Record<string, string | undefined>>): string {
  return text
    .replace(VARIABLE, (_, name: string) => vars[name] ?? '')
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/ ([,.!?])/g, '$1')
    .trim();
}
