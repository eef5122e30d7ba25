import { readFile } from 'node:fs/promises';
import { seedSchema, type Seed, type SeedInput } from './seed-schema.js';

/** Validates a seed object; the error names the source, each path in it and what is wrong. */
export function parseSeed(input: unknown, source = 'seed'): Seed {
  const result = seedSchema.safeParse(input);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(top level)';
    return `  ${where}: ${issue.message}`;
  });
  throw new Error(`Invalid simulator seed ${source}:\n${lines.join('\n')}`);
}

/** Reads and validates a seed JSON file (`--seed FILE`). */
export async function loadSeedFile(path: string): Promise<Seed> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`Cannot read simulator seed file ${path}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`Simulator seed file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  return parseSeed(json, `file ${path}`);
}

export type { Seed, SeedInput };
