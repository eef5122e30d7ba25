/** "3 min", "2 h 5 min", "4 d 1 h": coarse on purpose, a manager reads it at a glance. */
export function formatDuration(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 1) return `${Math.max(0, Math.floor(ms / 1000))} s`;
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

/** An instant in UTC with how long ago it was: "2026-11-21 14:03 UTC (35 min ago)". */
export function formatSince(atMs: number, nowMs: number): string {
  const iso = new Date(atMs).toISOString();
  const stamp = `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  const ago = nowMs - atMs;
  return ago >= 0 ? `${stamp} (${formatDuration(ago)} ago)` : `${stamp} (in ${formatDuration(-ago)})`;
}
