import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './scripts/chromium';
import { slotURL, workerSlot } from './e2e/support/worker';

/**
 * E2E against the real local service serving the built console. The browser is Debian's
 * chromium unless PLAYWRIGHT_CHROMIUM_PATH names another (or is empty: Playwright's own).
 *
 * Each worker drives a service of its own (e2e/support/worker.ts): the global setup starts one per
 * worker on E2E_PORT + its slot, and each worker loads this file with its slot set, so its baseURL is
 * its own service. Files run in parallel; the tests of one file in order, in one worker.
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  // Three on two cores: two left CPU idle while tests waited on their pages and services. A clean-clone
  // CI run's E2E step went from 1,187 s with two to 1,091 s with three; four timed out hub tests on a
  // machine other work kept busy.
  workers: Number(process.env.E2E_WORKERS ?? 3),
  retries: 0,
  // Hang guards, not speed limits (speed lives in the benchmarks): on a loaded 2-core machine a
  // lazy chart's first render once took longer than 10 s, and on a slower one (a billion-step loop
  // in 6.3 s) whole multi-browser tests ran past 90 s. On one CI run a page that shows in under two
  // seconds here took over 20 s to show its lazy chart.
  timeout: 180_000,
  expect: { timeout: 40_000 },
  reporter: [['list']],
  globalSetup: './e2e/support/global-setup.ts',
  use: {
    ...devices['Desktop Chrome'],
    baseURL: slotURL(workerSlot()),
    trace: 'retain-on-failure',
    // The offline shell's worker precaches the whole build (about 130 files) in every new context: a
    // load each spec does not need. Its own spec (offline-shell) allows it; the worker only answers
    // navigations and the build's files, so the others behave the same without it.
    serviceWorkers: 'block',
    launchOptions: chromiumLaunchOptions(),
  },
});
