import type { Runtime } from './runtime.js';

/** With the extra-fields realism switch on, items carry fields no client was written for. */
export function withExtras<T extends Record<string, unknown>>(rt: Runtime, item: T): T {
  if (!rt.realism.extra_fields) return item;
  return { ...item, sim_unknown_field: 'ignore me', sim_internal: { rank: 0.5, flags: ['x'] } };
}
