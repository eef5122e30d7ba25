import type { RequestClass } from '../policy/request-classes.js';
import type { Params } from './encode-params.js';

/** One call as a resource method describes it; the executor does the rest. */
export interface Operation {
  method: 'GET' | 'POST' | 'DELETE';
  /** Endpoint template, e.g. `/{account_id}/inbox/mention/{topic_id}/{id}`; also the metrics label. */
  template: string;
  pathValues?: Readonly<Record<string, string | number>>;
  params?: Params;
  /** Whether the call may be sent again after a transient failure. */
  idempotent: boolean;
  requestClass: RequestClass;
  /** An absolute `paging.next_url` to follow instead of the template (GET only). */
  nextUrl?: string;
  /** `xml` asks for XML and returns the text as is. */
  format?: 'json' | 'xml';
  /**
   * A 2xx answer means done whatever its body (a publish: the message is out). A body that is not the envelope is
   * then no failure (never retried, never reported as malformed); the caller reads what it can of `answer.bodyText`.
   */
  doneOnAny2xx?: boolean;
}
