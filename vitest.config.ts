import vue from '@vitejs/plugin-vue';
import { configDefaults, defineConfig } from 'vitest/config';
// With its extension: Vite's loader of this file warns about extensionless relative imports.
import { findPostgresBin } from './scripts/postgres-cluster.js';

/**
 * The server integration suite runs a second time on PostgreSQL, in a throwaway cluster of its own. Without
 * PostgreSQL it is skipped, with a message, unless CI is set: there it must run (.ci/run installs PostgreSQL).
 */
const postgresMissing = findPostgresBin() === undefined && process.env['CI'] === undefined;
if (postgresMissing) {
  console.warn('PostgreSQL is not installed (no initdb and pg_ctl; set POSTGRES_BIN): the integration-postgres project is skipped.');
}

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/unit/renderer/**'],
          environment: 'node',
        },
      },
      {
        // Component tests pick happy-dom per file (`// @vitest-environment happy-dom`); the rest run in Node.
        plugins: [vue()],
        test: {
          name: 'renderer',
          include: ['test/unit/renderer/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['test/unit/renderer/page-timers.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // Tests of the team server (its processes, moving a workspace to it) need PostgreSQL: they run in integration-postgres only.
          exclude: [...configDefaults.exclude, 'test/integration/**/*.postgres.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration-postgres',
          include: postgresMissing ? ['test/integration/server/postgres-unavailable.check.ts'] : ['test/integration/server/**/*.test.ts', 'test/integration/**/*.postgres.test.ts'],
          environment: 'node',
          env: { TEST_DATABASE: 'postgres' },
          globalSetup: postgresMissing ? [] : ['test/integration/server/postgres-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
