// Headless Chromium for the browser tests: Debian's build (or QFILL_CHROMIUM), launched the one way both suites need.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.QFILL_CHROMIUM ?? '/usr/bin/chromium';

// No sandbox (containers run as root), and nothing that phones home or updates itself during a test run.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/** Launches headless Chromium; throws naming the missing path and how to install it when it is absent. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM_PATH}: install Debian's chromium (apt-get install -y chromium; .ci/run does) or set QFILL_CHROMIUM to its path`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
