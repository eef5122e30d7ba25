/**
 * The `count` most recently updated of `slots`, newest first, ties in the order of `slots` (as a stable sort of all
 * of them would give). The dates are sorted as plain numbers first to find the cut-off, so only about `count` entries
 * go through a comparison function: at start the bridge asks for the newest 2,000 of tens of thousands, and a
 * comparison sort of all of them was most of that listing's time.
 */
export function newestSlots<S extends { updatedAt: number }>(slots: Array<[string, S]>, count: number): Array<[string, S]> {
  if (count <= 0) return [];
  if (slots.length <= count) return [...slots].sort(([, a], [, b]) => b.updatedAt - a.updatedAt);
  const dates = new Float64Array(slots.length);
  for (let i = 0; i < slots.length; i += 1) dates[i] = slots[i]![1].updatedAt;
  dates.sort();
  const cutoff = dates[slots.length - count]!;
  return slots
    .filter(([, slot]) => slot.updatedAt >= cutoff)
    .sort(([, a], [, b]) => b.updatedAt - a.updatedAt)
    .slice(0, count);
}
