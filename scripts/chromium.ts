import { existsSync } from 'node:fs';

/**
 * The one Chromium that the E2E tests and the benchmarks drive, with the one set of flags.
 * Playwright cannot download its own browser here, so Debian's is the default.
 */
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** PLAYWRIGHT_CHROMIUM_PATH when set (an empty value means Playwright's own browser), else Debian's when installed. */
export function chromiumPath(): string | undefined {
  const fromEnv = process.env.PLAYWRIGHT_CHROMIUM_PATH;
  if (fromEnv !== undefined) return fromEnv || undefined;
  return existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined;
}

/**
 * No sandbox (it needs privileges a container does not grant) and no GPU (there is none); the rest
 * keep the browser from doing what no test asked for (background requests, updates, sync, first-run
 * pages, QUIC), which would add noise to the benchmarks.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Options for Playwright's `chromium.launch` (and a config's `launchOptions`). */
export const chromiumLaunchOptions = (executablePath = chromiumPath()) => ({ executablePath, args: CHROMIUM_ARGS });
