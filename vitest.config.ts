import { defineConfig } from 'vitest/config';

/**
 * Tests that start whole processes or a database server, pack the package, run load or fuzz campaigns, or fill a
 * store with tens of thousands of records: minutes, not seconds. Everything else is a unit test.
 */
const E2E = [
  'test/e2e/**/*.test.ts',
  'test/bench/**/*.test.ts',
  'test/cli/cli-process.test.ts',
  'test/cli/crash-handlers.test.ts',
  'test/cli/cmd-command.test.ts',
  'test/**/*-fuzz.test.ts',
  'test/simulator/fuzz.test.ts',
  'test/storage/large-store.test.ts',
  'test/storage/postgres-*.test.ts',
  'test/storage/file-store.test.ts',
  'test/storage/crash-matrix.test.ts',
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
      // Unit test files share their workers' module cache (no per-file isolation): importing the client, Bolt and zod
      // again for every file was most of the run. A unit test therefore leaves no global state behind.
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: E2E, isolate: false } },
      { extends: true, test: { name: 'e2e', include: E2E } },
    ],
  },
});
