import { defineConfig } from 'vitest/config';

// Two cores in CI: integration files share one PostgreSQL server, each in a database of its own.
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
        },
      },
      {
        test: {
          name: 'int',
          include: ['test/**/*.int.spec.ts'],
          globalSetup: ['test/support/globalSetup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
