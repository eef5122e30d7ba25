import { EngageError } from '../engage/index.js';

/** The outcome of one probe call, kept as data so that one failure does not stop the other checks. */
export type Attempt<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

export async function attempt<T>(fn: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** What a failed call means to the person running doctor: the client's human sentence, else the message. */
export function why(error: unknown): string {
  if (error instanceof EngageError) {
    const said = error.description ? ` (Engage said: ${error.description})` : '';
    return `${error.humanMessage}${said}`;
  }
  return error instanceof Error ? error.message : String(error);
}
