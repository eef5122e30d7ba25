import type { Params } from '../transport/encode-params.js';
import type { Operation } from '../transport/operation.js';
import type { RequestExecutor } from '../transport/request-executor.js';

/** What every resource module needs from the client. */
export interface ResourceContext {
  executor: RequestExecutor;
  version: string;
  maxPages: number;
  handoverServices: readonly string[];
}

type PathValues = Readonly<Record<string, string | number>>;

/** A read: always safe to send again. */
export function readOp(template: string, pathValues: PathValues = {}, params: Params = {}): Operation {
  return { method: 'GET', template, pathValues, params, idempotent: true, requestClass: 'read' };
}

/** A write; `idempotent` says whether a transient failure may be retried automatically. */
export function writeOp(
  method: 'POST' | 'DELETE',
  template: string,
  idempotent: boolean,
  pathValues: PathValues = {},
  params: Params = {},
): Operation {
  return { method, template, pathValues, params, idempotent, requestClass: 'write' };
}

/** Comma list for `topic_ids`. */
export function commaList(values: readonly (string | number)[] | undefined): string | undefined {
  return values === undefined || values.length === 0 ? undefined : values.map(String).join(',');
}

/** A non-empty plain object (an `updates` value). */
export function isNonEmptyObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0;
}
