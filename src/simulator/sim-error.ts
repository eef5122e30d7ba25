/** An error that becomes a conventions-shaped answer: HTTP status + `{ error, error_description }`. */
export class SimError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'SimError';
  }
}

export const invalidParameter = (message: string): SimError => new SimError(400, 'invalid_parameter', message);
export const notFound = (message: string): SimError => new SimError(404, 'not_found', message);
