/**
 * A sentence a manager can act on, for a failure that escaped the executor or the bridge.
 * Application errors may carry their own human sentence (`humanMessage`, `userMessage`); otherwise the
 * error's stable code or class name is shown, never its stack or raw message (which can hold request data).
 */
export function failureText(what: string, error: unknown): string {
  const human = humanSentence(error);
  if (human !== undefined) return `Could not ${what}: ${human}`;
  const label = errorLabel(error);
  return `Could not ${what} because of an unexpected error (${label}). Nothing else was changed; try again, and if it persists check the bridge logs.`;
}

function humanSentence(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  for (const key of ['humanMessage', 'userMessage'] as const) {
    const value = (error as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.trim().length > 0) return value.trim();
  }
  return undefined;
}

function errorLabel(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && /^[\w.:-]{1,60}$/.test(code)) return code;
    const name = (error as { name?: unknown }).name;
    if (typeof name === 'string' && /^\w{1,60}$/.test(name)) return name;
  }
  return 'unknown';
}
