import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The import rules of docs/architecture.md, checked over the real import graph of src/ (TypeScript's own
// pre-processor reads the import and export-from statements, type-only ones included).

const SRC = resolve(import.meta.dirname, '../../src');

interface Rule {
  /** Folders of ours it may import, through an index.ts (the folder's or a sub-folder's public surface). */
  readonly areas: readonly string[];
  /** Packages it may import; node: built-ins are allowed unless `pure`. */
  readonly packages: readonly string[];
  /** No I/O: no node: built-ins at all. */
  readonly pure?: boolean;
}

/** Each folder is a boundary; imports point inward. The composition root (below) may import everything. */
const RULES: Record<string, Rule> = {
  engage: { areas: [], packages: ['undici', 'zod'] },
  simulator: { areas: ['engage'], packages: ['zod'] },
  storage: { areas: [], packages: ['zod', 'pg'] },
  bot: { areas: [], packages: ['zod', 'yaml', 'tinyld', 're2js'], pure: true },
  bridge: { areas: ['engage', 'storage', 'bot', 'nlu'], packages: ['node-cron', 'zod'] },
  commands: { areas: ['engage', 'storage', 'bridge', 'bot'], packages: ['zod'] },
  slack: { areas: ['commands', 'bridge', 'http'], packages: ['@slack/bolt'] },
  http: { areas: [], packages: [] },
  metrics: { areas: [], packages: ['prom-client'] },
  nlu: {
    areas: [],
    packages: ['zod', '@nlpjs/core', '@nlpjs/nlp', '@nlpjs/lang-en', '@nlpjs/lang-nl', '@nlpjs/lang-fr', '@nlpjs/language-min'],
  },
  shared: { areas: [], packages: [], pure: true },
};
/** The project's words (src/shared/): every folder may use them. */
const EVERYONE = new Set(['shared']);
/** main.ts, cli.ts, cli/, config.ts, settings/, log.ts: they build everything, so they may import everything. */
const ROOT = new Set(['main', 'cli', 'config', 'settings', 'log']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** `bridge` for src/bridge/x.ts, `main` for src/main.ts. */
function areaOf(file: string): string {
  const [first, second] = relative(SRC, file).split('/');
  return second === undefined ? first!.replace(/\.ts$/, '') : first!;
}

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

interface Edge {
  readonly file: string;
  readonly specifier: string;
}

function importsOf(file: string): Edge[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.map((f) => ({ file: relative(SRC, file), specifier: f.fileName }));
}

/** Every import that breaks a rule, as `file: specifier (why)`. */
function breaks(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = areaOf(file);
    if (ROOT.has(from)) continue;
    const rule = RULES[from];
    if (rule === undefined) {
      found.push(`${relative(SRC, file)}: folder "${from}" has no rule in the architecture`);
      continue;
    }
    for (const edge of importsOf(file)) {
      const why = check(rule, from, file, edge.specifier);
      if (why) found.push(`${edge.file}: ${edge.specifier} (${why})`);
    }
  }
  return found;
}

function check(rule: Rule, from: string, file: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) {
    const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
    const to = areaOf(target);
    if (to === from) return undefined;
    if (ROOT.has(to)) return `${from}/ may not import the composition root`;
    if (EVERYONE.has(to)) return undefined;
    if (!rule.areas.includes(to)) return `${from}/ may not import ${to}/`;
    if (basename(target) !== 'index.ts') return `${to}/ is imported through an index.ts (its public surface) only`;
    return undefined;
  }
  const bare = specifier.replace(/^node:/, '');
  if (specifier.startsWith('node:') || builtinModules.includes(bare.split('/')[0]!)) {
    return rule.pure ? `${from}/ is pure: no node: modules` : undefined;
  }
  const pkg = packageOf(specifier);
  return rule.packages.includes(pkg) ? undefined : `${pkg} is not one of ${from}/'s libraries`;
}

describe('the import rules of docs/architecture.md', () => {
  it('hold for every file in src/', () => {
    expect(breaks()).toEqual([]);
  });

  it('would catch a break (the checker itself is tested on made-up imports)', () => {
    const bridge = join(SRC, 'bridge/x.ts');
    expect(check(RULES.bridge!, 'bridge', bridge, 'pino')).toMatch(/pino is not one of bridge/);
    expect(check(RULES.bridge!, 'bridge', bridge, '../slack/index.js')).toMatch(/may not import slack/);
    expect(check(RULES.bridge!, 'bridge', bridge, '../main.js')).toMatch(/composition root/);
    expect(check(RULES.bridge!, 'bridge', bridge, '../bot/decide.js')).toMatch(/through an index\.ts/);
    expect(check(RULES.bridge!, 'bridge', bridge, '../bot/index.js')).toBeUndefined();
    expect(check(RULES.bot!, 'bot', join(SRC, 'bot/x.ts'), 'node:fs/promises')).toMatch(/pure/);
    expect(check(RULES.storage!, 'storage', join(SRC, 'storage/x.ts'), './file-store.js')).toBeUndefined();
  });
});
