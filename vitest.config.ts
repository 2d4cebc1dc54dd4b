import { defineConfig } from 'vitest/config';

// Two cores in CI: integration files share one PostgreSQL server, each in a database of its own.
// The timeouts only catch a test that hangs: they leave room for a busy two-core machine (load 10
// to 16) that runs everything ten times slower, so no test fails for the machine's speed alone.
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    minWorkers: 1,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.spec.ts', 'projections/**/*.spec.ts', 'test/unit/**/*.spec.ts'],
          exclude: ['**/*.int.spec.ts'],
          // Some unit tests parse the real lists (a second each on a quiet machine).
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'int',
          include: ['test/**/*.int.spec.ts'],
          globalSetup: ['test/support/globalSetup.ts'],
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
