/** Nearest-rank percentile (p in 0..100) of unsorted values; null when there are none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export interface LatencySummary {
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

export function summarize(values: readonly number[]): LatencySummary {
  const round = (v: number | null) => (v === null ? null : Math.round(v));
  return { p50: round(percentile(values, 50)), p95: round(percentile(values, 95)), p99: round(percentile(values, 99)) };
}
