import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonLinesFile } from '../../src/storage/jsonl-file.js';
import { useTempDirs } from './test-dirs.js';

const tempDir = useTempDirs();

describe.each([
  ['opened for each append', {}],
  ['kept open between appends', { keepOpen: true }],
])('a JSON Lines file %s', (_name, options) => {
  it('starts after a torn last line on a fresh line, and each later append right after the one before', async () => {
    const path = join(await tempDir(), 'log.jsonl');
    await writeFile(path, '{"a":1}\n{"torn');
    const file = new JsonLinesFile(path, undefined, options);
    const spans = [
      ...(await file.append(['{"b":2}'])),
      ...(await file.append(['{"c":3}', '{"d":"é"}'])),
      ...(await file.append(['{"e":5}'])),
    ];
    expect(await readFile(path, 'utf8')).toBe('{"a":1}\n{"torn\n{"b":2}\n{"c":3}\n{"d":"é"}\n{"e":5}\n');
    expect(await Promise.all(spans.map((span) => file.readAt(span)))).toEqual(['{"b":2}', '{"c":3}', '{"d":"é"}', '{"e":5}']);
    await file.close();
  });

  it('appends to the file a rewrite left, not to the one it replaced', async () => {
    const path = join(await tempDir(), 'log.jsonl');
    const file = new JsonLinesFile(path, undefined, options);
    await file.append(['{"n":1}', '{"n":2}']);
    expect(await file.rewrite((text) => text !== '{"n":1}')).toBe(1);
    const [span] = await file.append(['{"n":3}']);
    expect(await readFile(path, 'utf8')).toBe('{"n":2}\n{"n":3}\n');
    expect(await file.readAt(span!)).toBe('{"n":3}');
    await file.close();
  });

  it('appends again after a close, and after the file was cut short by someone else once closed', async () => {
    const path = join(await tempDir(), 'log.jsonl');
    const file = new JsonLinesFile(path, undefined, options);
    await file.append(['{"n":1}']);
    await file.close();
    await file.append(['{"n":2}']);
    expect(await readFile(path, 'utf8')).toBe('{"n":1}\n{"n":2}\n');
    await file.close();
    await writeFile(path, '{"n":1}\n{"n');
    const [span] = await file.append(['{"n":3}']);
    expect(await readFile(path, 'utf8')).toBe('{"n":1}\n{"n\n{"n":3}\n');
    expect(await file.readAt(span!)).toBe('{"n":3}');
    await file.close();
  });
});
