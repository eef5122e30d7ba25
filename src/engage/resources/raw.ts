import type { HeaderBag } from '../errors/rate-limit-headers.js';
import type { Params } from '../transport/encode-params.js';
import type { ResourceContext } from './resource-context.js';

export interface RawRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** e.g. `/{account_id}/inbox/mention/{topic_id}/{id}`; ids go in `pathValues` so metrics stay grouped. */
  template: string;
  pathValues?: Readonly<Record<string, string | number>>;
  params?: Params;
  /** Default `json` (the envelope text, unparsed); `xml` asks the service for XML. */
  format?: 'json' | 'xml';
  /** Default: true for GET, false otherwise (the caller knows whether a repeat is safe). */
  idempotent?: boolean;
}

export interface RawAnswer {
  status: number;
  headers: HeaderBag;
  body: string;
}

/** Sends any call through the same transport, pacing, retries and error mapping, and returns the text. */
export function rawResource(ctx: ResourceContext) {
  return async (req: RawRequest): Promise<RawAnswer> => {
    const { answer } = await ctx.executor.send({
      method: req.method,
      template: req.template,
      pathValues: req.pathValues ?? {},
      params: req.params ?? {},
      idempotent: req.idempotent ?? req.method === 'GET',
      requestClass: req.method === 'GET' ? 'read' : 'write',
      format: req.format ?? 'json',
    });
    return { status: answer.status, headers: answer.headers, body: answer.bodyText };
  };
}
