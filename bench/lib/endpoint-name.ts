import type { RequestEntry } from './sim-client.js';

/**
 * The endpoint a logged request hit, with ids replaced so calls group by operation:
 * `GET /1001/inbox/handover/whatsapp/3247…` → `GET inbox/handover/{service}/{id}`.
 */
export function endpointName(method: string, path: string): string {
  const parts = path
    .split('/')
    .filter((p) => p.length > 0)
    .slice(1); // drop the account id
  let name = parts.join('/');
  if (parts[0] === 'inbox' && (parts[1] === 'handover' || parts[1] === 'contact') && parts.length >= 4)
    name = `inbox/${parts[1]}/{service}/{id}`;
  else if (parts[0] === 'inbox' && parts[1] === 'mention' && parts.length >= 4) name = 'inbox/mention/{topic}/{id}';
  else name = parts.map((p) => (/^\d+$/.test(p) ? '{id}' : p)).join('/');
  return `${method} ${name}`;
}

/** Calls by endpoint, from the simulator's request log. */
export function countByEndpoint(requests: readonly RequestEntry[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of requests) {
    if (r.path.startsWith('/_sim')) continue;
    const name = endpointName(r.method, r.path);
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

/** The per-message figure: every call divided by the answered messages, by endpoint and in total. */
export function callsPerAnswer(
  requests: readonly RequestEntry[],
  answered: number,
): { total: number | null; byEndpoint: Record<string, number> } {
  const counts = countByEndpoint(requests);
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  if (answered === 0) return { total: null, byEndpoint: {} };
  const round = (v: number) => Math.round((v / answered) * 1000) / 1000;
  return { total: round(total), byEndpoint: Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, round(v)])) };
}
