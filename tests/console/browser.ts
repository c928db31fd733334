import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildConsole, isConsoleStale } from '../../infra/cli/build-if-stale.mjs';

/** Debian's chromium: `.ci/run` installs it with apt-get; nothing downloads a browser. */
export const CHROMIUM = '/usr/bin/chromium';
/** Where the console tests leave their screenshots (git ignores it). */
export const SHOTS = resolve('tests/console/screenshots');

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The console built as `npm install` builds it (a no-op when dist/console is newer than its sources). */
export async function consoleBuilt(): Promise<void> {
  const root = resolve('.');
  if (isConsoleStale(root)) await buildConsole(root);
}

/** Headless chromium; missing, the tests fail here rather than skip. */
export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium), as .ci/run does`);
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}
