/** The most events inside any window of `windowMs` (sliding), from their timestamps. */
export function maxInWindow(timestamps: readonly number[], windowMs: number): number {
  const t = [...timestamps].sort((a, b) => a - b);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < t.length; hi++) {
    while (t[hi]! - t[lo]! >= windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}
