import type { z } from 'zod';
import { InvalidParameterError } from '../errors/error-kinds.js';
import { describeIssues } from '../transport/read-envelope.js';

/** Where a refused call was going, for the error (no request is made). */
export interface CallSite {
  method: string;
  template: string;
}

/** Refuses a call before any request, the way the service would (code `invalid_parameter`). */
export function refuse(site: CallSite, description: string): InvalidParameterError {
  return new InvalidParameterError({ method: site.method, path: site.template, description }, `Not sent to Engage: ${description}.`);
}

/** Validates caller input with a schema; the error names each wrong field. */
export function checkInput<S extends z.ZodType>(site: CallSite, schema: S, value: unknown, root: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw refuse(site, describeIssues(parsed.error, root));
}

/** `limit` must be an integer within the endpoint's bounds. */
export function checkLimit(site: CallSite, limit: number | undefined, max: number): number | undefined {
  if (limit === undefined) return undefined;
  if (!Number.isInteger(limit) || limit < 0 || limit > max) {
    throw refuse(site, `limit must be an integer from 0 to ${max} (got ${limit})`);
  }
  return limit;
}

/** An id used in a path: a non-empty string or a finite number. */
export function checkId(site: CallSite, name: string, value: string | number): string {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || text.trim() === '') throw refuse(site, `${name} must be a non-empty id`);
  return text;
}

/** Dates in parameters are ISO 8601 (conventions). */
export function isoDate(site: CallSite, name: string, value: Date | string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) throw refuse(site, `${name} must be an ISO 8601 date (got ${String(value)})`);
  return typeof value === 'string' ? value : date.toISOString();
}
