import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores on every machine here: keep worker count modest so socket tests are not starved.
    maxWorkers: 2,
  },
});
