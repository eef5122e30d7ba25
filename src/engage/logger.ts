/** The subset of pino's logger the client uses: `(obj, msg)`. */
export interface EngageLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const ignore = (): void => undefined;

export const noopLogger: EngageLogger = { debug: ignore, info: ignore, warn: ignore, error: ignore };
