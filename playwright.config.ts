import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './scripts/chromium';

/**
 * E2E against the real local service serving the built console. The browser is Debian's
 * chromium unless PLAYWRIGHT_CHROMIUM_PATH names another (or is empty: Playwright's own).
 */
const port = Number(process.env.E2E_PORT ?? 8788);

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  // One worker: tests share one service, and reconciliation checks the whole organization's books.
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    ...devices['Desktop Chrome'],
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions(),
  },
  webServer: {
    command: `node --import tsx e2e/support/serve.ts ${port}`,
    url: `http://127.0.0.1:${port}/v1/frontiers`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
