import { defineConfig } from 'vitest/config';

/**
 * Tests that start whole processes, pack the package, run load or fuzz campaigns, or fill a store with
 * tens of thousands of records: minutes, not seconds. Everything else is a unit test.
 */
const E2E = [
  'test/e2e/**/*.test.ts',
  'test/bench/**/*.test.ts',
  'test/cli/cli-process.test.ts',
  'test/**/*-fuzz.test.ts',
  'test/simulator/fuzz.test.ts',
  'test/storage/large-store.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores on every machine here: keep worker count modest so socket tests are not starved.
    maxWorkers: 2,
    globalSetup: ['test/support/temp-root.ts'],
    // `npm test` runs both projects with one summary; `npm run test:unit` / `test:e2e` run one.
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: E2E } },
      { extends: true, test: { name: 'e2e', include: E2E } },
    ],
  },
});
