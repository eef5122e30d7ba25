import type { PageRequest } from './paging.js';
import type { Params } from './params.js';
import type { Runtime } from './runtime.js';

export type ApiMethod = 'GET' | 'POST' | 'DELETE';

/** What one API handler receives. */
export interface ApiContext extends PageRequest {
  rt: Runtime;
  params: Params;
  /** Path captures (`:name` segments of the route). */
  path: Record<string, string>;
  /** The `version` parameter as a number; 0 (the oldest behaviour) when absent. */
  version: number;
  userId: string;
  /** Non-fatal problems, sent back as `meta.messages`. */
  warnings: string[];
  /** What the request log keeps of the answer besides its status (a handover call: the owner it showed). */
  logged?: { owner?: 'agents' | 'application' };
  /** A body to send instead of the envelope (`null`: an empty body), for the `publish_answer_shape` guess. */
  answer?: { body: unknown };
}

export interface Operation {
  scopes: readonly string[];
  /** Parameters this operation knows; any other gets a `meta.messages` warning. */
  params: readonly string[];
  handler: (ctx: ApiContext) => unknown;
}

export interface Route {
  /** Segments; `:name` captures one segment. `:account` is checked against the account id. */
  pattern: string;
  ops: Partial<Record<ApiMethod, Operation>>;
}

export const READ = ['accounts_read'] as const;
export const WRITE = ['accounts_read', 'accounts_write'] as const;
export const DELETE_ONLY = ['accounts_write'] as const;
export const HANDOVER = ['accounts_handover'] as const;
