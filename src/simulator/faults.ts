import { z } from 'zod';

const probability = z.number().min(0).max(1);

export const faultsSchema = z.strictObject({
  latency_ms: z.number().int().min(0).max(60_000).optional(),
  rate_limit: probability.optional(),
  server_error: probability.optional(),
  timeout: probability.optional(),
  reset: probability.optional(),
  malformed: probability.optional(),
  /** Re-seeds the fault dice so a run is reproducible. */
  seed: z.number().int().optional(),
});

export type Faults = z.infer<typeof faultsSchema>;
export type FaultKind = 'rate_limit' | 'server_error' | 'timeout' | 'reset' | 'malformed';
const KINDS: readonly FaultKind[] = ['rate_limit', 'server_error', 'timeout', 'reset', 'malformed'];

/** One roll of the dice: which fault (if any) this request suffers. */
export function pickFault(faults: Faults, roll: number): FaultKind | undefined {
  let edge = 0;
  for (const kind of KINDS) {
    edge += faults[kind] ?? 0;
    if (roll < edge) return kind;
  }
  return undefined;
}

/** A small seedable PRNG (mulberry32): deterministic fault and delay sequences in tests. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
