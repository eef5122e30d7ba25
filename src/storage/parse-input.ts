import { z } from 'zod';
import { StoreError } from './store-error.js';

/**
 * Validates a caller's value and returns a private deep copy. The JSON round trip guarantees that what
 * the store keeps is exactly what it will read back from disk (no Dates, Maps or undefined surprises).
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  let copy: unknown;
  try {
    const text = JSON.stringify(value);
    if (text === undefined) throw new Error('no JSON value');
    copy = JSON.parse(text);
  } catch (error) {
    throw new StoreError(
      'invalid',
      `${what} is not JSON data (${error instanceof Error ? error.message : String(error)}); nothing was changed.`,
    );
  }
  const result = schema.safeParse(copy);
  if (!result.success) {
    throw new StoreError('invalid', `${what} is invalid; nothing was changed:\n${z.prettifyError(result.error)}`);
  }
  return result.data;
}

/** A caller-supplied id or key: a non-empty string. */
export function requireId(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new StoreError('invalid', `${what} must be a non-empty string; nothing was changed.`);
  }
  return value;
}
