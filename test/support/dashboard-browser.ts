import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type BrowserContext, chromium } from 'playwright-core';

import { repoRoot } from './run-cli.js';

/** Debian's Chromium, installed by scripts/install-system-deps.sh (never a downloaded browser). */
export const CHROMIUM = '/usr/bin/chromium';

/** Where browser specs keep their screenshots (gitignored). */
export const ARTIFACTS = join(repoRoot, 'test/artifacts');

/** A headless Chromium with a fresh profile, and its disposal. */
export interface DashboardBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Starts Debian's Chromium headless with a fresh profile and nothing that reaches the network on
 * its own (no sync, component updates, background requests).
 */
export async function launchChromium(): Promise<DashboardBrowser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: scripts/install-system-deps.sh installs Debian's chromium`);
  mkdirSync(ARTIFACTS, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'satfarm-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1400, height: 950 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
