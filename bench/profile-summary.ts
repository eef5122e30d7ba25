// `npx tsx bench/profile-summary.ts FILE.cpuprofile [--top N] [--per N] [--callers REGEX]`: where a V8 CPU profile (node
// `--cpu-prof`, e.g. the bridge's: `npm run bench -- --cpu-prof DIR`) spent its time, without a browser. Prints one
// JSON object: the sampled total, self time by function and by file (node_modules grouped by package), and the
// inclusive time of the heaviest functions (a function counted once per sample even when recursive). With
// `--per N` every figure is also divided by N (e.g. the answers of the run) as ms per answer; with `--callers REGEX`,
// the time spent under the frames whose name (`function file:line`) matches, by their nearest caller in another file.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileRow {
  readonly name: string;
  readonly ms: number;
  readonly share: number;
}

/** Where a frame's code lives: a package under node_modules, a file of ours relative to the repository, or node's own. */
export function fileOf(url: string): string {
  if (url === '') return '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return `npm:${rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  const m = /\/(src|dist|bench)\/(.*)$/.exec(url);
  return m ? `${m[1]}/${m[2]}` : url.replace(/^file:\/\//, '');
}

function frameName(f: CallFrame): string {
  return `${f.functionName || '(anonymous)'} ${fileOf(f.url)}:${f.lineNumber + 1}`;
}

function top(map: Map<string, number>, total: number, n: number): ProfileRow[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10, share: Math.round((us / total) * 1000) / 1000 }));
}

/** Self time by function and by file, and inclusive time by function, in ms (samples weighted by their time delta). */
export function summarize(p: CpuProfile, n = 30, callersOf?: RegExp) {
  const byId = new Map(p.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of p.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const selfByFn = new Map<string, number>();
  const selfByFile = new Map<string, number>();
  const inclusive = new Map<string, number>();
  // With `callersOf`: the time under a frame whose name matches, by the nearest caller in another file.
  const callers = new Map<string, number>();
  let total = 0;
  let idle = 0;
  p.samples.forEach((id, i) => {
    const us = p.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node) return;
    total += us;
    if (node.callFrame.functionName === '(idle)') idle += us;
    const fn = frameName(node.callFrame);
    selfByFn.set(fn, (selfByFn.get(fn) ?? 0) + us);
    const file = fileOf(node.callFrame.url);
    selfByFile.set(file, (selfByFile.get(file) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const name = frameName(byId.get(cur)!.callFrame);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + us);
    }
    if (callersOf) {
      // The outermost matching frame, then the first frame above it in another file.
      let match: number | undefined;
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        if (callersOf.test(frameName(byId.get(cur)!.callFrame))) match = cur;
      }
      if (match !== undefined) {
        const file = fileOf(byId.get(match)!.callFrame.url);
        let up = parent.get(match);
        while (up !== undefined && fileOf(byId.get(up)!.callFrame.url) === file) up = parent.get(up);
        const name = up === undefined ? '(top)' : frameName(byId.get(up)!.callFrame);
        callers.set(name, (callers.get(name) ?? 0) + us);
      }
    }
  });
  const busy = total - idle;
  return {
    sampled_ms: Math.round(total / 1000),
    busy_ms: Math.round(busy / 1000),
    self_by_function: top(selfByFn, busy, n),
    self_by_file: top(selfByFile, busy, n),
    inclusive_by_function: top(inclusive, busy, n),
    ...(callersOf ? { callers: top(callers, busy, n) } : {}),
  };
}

function perAnswer(rows: readonly ProfileRow[], per: number) {
  return rows.map((r) => ({ ...r, ms_per_answer: Math.round((r.ms / per) * 1000) / 1000 }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: npx tsx bench/profile-summary.ts FILE.cpuprofile [--top N] [--per N]\n');
    process.exit(2);
  }
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const callersAt = process.argv.indexOf('--callers');
  const callersOf = callersAt >= 0 ? new RegExp(process.argv[callersAt + 1] ?? '') : undefined;
  const s = summarize(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, arg('top') ?? 30, callersOf);
  const per = arg('per');
  const out = per
    ? {
        ...s,
        busy_ms_per_answer: Math.round((s.busy_ms / per) * 1000) / 1000,
        self_by_function: perAnswer(s.self_by_function, per),
        self_by_file: perAnswer(s.self_by_file, per),
        inclusive_by_function: perAnswer(s.inclusive_by_function, per),
      }
    : s;
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}
