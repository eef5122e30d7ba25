import { z } from 'zod';
import { StoreError } from './store-error.js';

/** Validates a caller's value and returns a private deep copy, exactly what the store will read back (a JSON round trip). */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  return validateInput(schema, JSON.parse(jsonTextOf(value, what)), what);
}

/**
 * Validates a caller's value as given (parts typed `unknown` stay the caller's own). For a value kept as JSON text
 * (`jsonTextOf`), the text is the private copy: every typed leaf is a string, a finite number, a boolean or an enum.
 */
export function validateInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new StoreError('invalid', `${what} is invalid; nothing was changed:\n${z.prettifyError(result.error)}`);
  }
  return result.data;
}

/** The JSON text of a validated value; a value that is not JSON data (a cycle, a BigInt) is refused. */
export function jsonTextOf(value: unknown, what: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new StoreError(
      'invalid',
      `${what} is not JSON data (${error instanceof Error ? error.message : String(error)}); nothing was changed.`,
    );
  }
  if (text === undefined) throw new StoreError('invalid', `${what} is not JSON data (no JSON value); nothing was changed.`);
  return text;
}

/** A caller-supplied id or key: a non-empty string. */
export function requireId(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new StoreError('invalid', `${what} must be a non-empty string; nothing was changed.`);
  }
  return value;
}
