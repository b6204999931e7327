/**
 * The Playwright examples of `@x/testing`'s README, run by `pnpm test:playwright` (and so by CI): the
 * system Chromium, headless, as the browser test project launches it. Playwright downloads no browser
 * here (packages are installed with PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1).
 */
import { defineConfig } from '@playwright/test';
import { findBrowser } from '../browser-tests/src/config.ts';

const browser = findBrowser();
if (browser.path === undefined) throw new Error(browser.problem);

export default defineConfig({
  testDir: 'tests',
  workers: 1,
  retries: 0,
  reporter: 'list',
  forbidOnly: true,
  timeout: 20_000,
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: browser.path, args: ['--no-sandbox'] },
  },
});
