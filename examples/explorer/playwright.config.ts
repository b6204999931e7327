/**
 * The explorer's end-to-end test, run by `pnpm test:example` (and so by `pnpm check`): the BUILT app
 * (dist/, from `pnpm build`) served by `vite preview` on 127.0.0.1, in the system Chromium, headless,
 * as tools/playwright-example launches it. Playwright downloads no browser here.
 */
import { defineConfig } from '@playwright/test';
import { findBrowser } from '../../tools/browser-tests/src/config.ts';

const browser = findBrowser();
if (browser.path === undefined) throw new Error(browser.problem);

export default defineConfig({
  testDir: 'tests',
  outputDir: 'test-results/output',
  workers: 1,
  retries: 0,
  reporter: 'list',
  forbidOnly: true,
  timeout: 30_000,
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 900 },
    launchOptions: {
      executablePath: browser.path,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
