export type StoreErrorCode = 'locked' | 'corrupt' | 'schema' | 'io' | 'invalid' | 'closed';

/**
 * Every failure of the store: a stable `code` for programs and a `message` an operator can act on
 * (which file, what is wrong, what to do). Messages never carry record contents.
 */
export class StoreError extends Error {
  override readonly name = 'StoreError';

  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isStoreError(value: unknown, code?: StoreErrorCode): value is StoreError {
  return value instanceof StoreError && (code === undefined || value.code === code);
}

/** The short reason of an I/O error (`ENOSPC: no space left on device`), never a stack. */
export function describeCause(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  return String(cause);
}
