// Re-judges a campaign saved with `npm run chaos -- --dump DIR`: prints the verdict as JSON.
// Usage: npx tsx bench/judge-dump.ts DIR
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { judgeCampaign } from './lib/chaos-verdict.js';

async function readLines(dir: string, name: string): Promise<never[]> {
  const text = await readFile(join(dir, `${name}.jsonl`), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as never);
}

async function main(dir: string | undefined): Promise<void> {
  if (!dir) throw new Error('usage: npx tsx bench/judge-dump.ts DIR (a directory written by npm run chaos -- --dump DIR)');
  const verdict = judgeCampaign(await readLines(dir, 'events'), await readLines(dir, 'requests'), await readLines(dir, 'outbound'));
  process.stdout.write(`${JSON.stringify(verdict, null, 2)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv[2]).catch((err: unknown) => {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  });
}
