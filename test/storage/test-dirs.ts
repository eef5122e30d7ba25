import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** A fresh data directory per test, removed afterwards. */
export function useTempDirs(): () => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), 'store-test-'));
    made.push(dir);
    return dir;
  };
}

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  fields: object;
  message: string;
}

export function recordingLogger(): { lines: LogLine[]; logger: Record<LogLine['level'], (fields: object, message: string) => void> } {
  const lines: LogLine[] = [];
  const at = (level: LogLine['level']) => (fields: object, message: string) => lines.push({ level, fields, message });
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error') } };
}
