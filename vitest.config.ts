import react from '@vitejs/plugin-react';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** The console's tests in jsdom. */
const unit = {
  environment: 'jsdom' as const,
  include: ['src/**/*.test.{ts,tsx}'],
  setupFiles: ['src/test/setup.ts'],
  // A hang guard, not a speed limit: on a busy machine (npm test runs beside E2E) a jsdom test
  // that takes 1 s alone can take several; Vitest's default 5 s failed them.
  testTimeout: 30_000,
};

/** Unit tests that render the charts: in forks, as each file of the suite once was. */
const FORKED = ['src/features/stats/components/stats-pages.test.tsx'];

export default defineConfig({
  plugins: [react()],
  test: {
    // One test file per core. Vitest's default for a run is one fewer than the cores, which on a
    // 2-core machine ran the whole suite in one worker (474 s in CI; 313 s with two, 293 s with three).
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          ...unit,
          name: 'unit',
          // Each file in a VM context of a long-lived worker: jsdom and the modules outside the source
          // load once per worker, not once per file. In forks, setting up jsdom alone took about 2.4 s
          // of CPU per file (256 s over 108 files); the project took 221 s of CPU there, 75 s here.
          pool: 'vmThreads',
          exclude: FORKED,
        },
      },
      {
        extends: true,
        // recharts reaches ESM through a CommonJS entry, which a VM context cannot require.
        test: { ...unit, name: 'unit (charts)', include: FORKED },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts'],
          // Every exchange with the service is judged against docs/openapi.json (server/tests/openapi-judge.ts).
          setupFiles: ['server/tests/judge-setup.ts'],
          // Each file starts its own service on its own data directory, and some tests start CLIs
          // (a tsx process each). A hang guard, not a speed limit: CI once took over 60 s for four CLIs.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
