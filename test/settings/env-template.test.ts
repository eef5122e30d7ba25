import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEnv } from 'node:util';
import { envTemplate } from '../../src/settings/env-template.js';
import { SETTINGS } from '../../src/settings/settings-table.js';

const EXAMPLE = join(resolve(import.meta.dirname, '../..'), 'config/example.env');

describe('the .env template', () => {
  it('is what config/example.env holds (regenerate the file when a setting changes)', async () => {
    expect(await readFile(EXAMPLE, 'utf8')).toBe(envTemplate());
  });

  it('lists every setting of the table, commented out, with its default', () => {
    const text = envTemplate();
    for (const s of SETTINGS) {
      expect(text).toContain(`\n# ${s.name}=\n`);
    }
    expect(text.split('\n').filter((l) => /^#\s*[A-Z][A-Z0-9_]+=$/.test(l))).toHaveLength(SETTINGS.length);
  });

  it('sets nothing while every line is commented', () => {
    expect(parseEnv(envTemplate())).toEqual({});
  });
});
