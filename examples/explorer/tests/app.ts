/**
 * Fixtures: the built app (dist/) served by `vite preview` on a free port of 127.0.0.1, one server per
 * worker, as `baseURL`; and a page that fails its test on any console error or warning, or an uncaught
 * error.
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Page } from '@playwright/test';
import { preview } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

export const test = base.extend<object, { appUrl: string }>({
  appUrl: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern
    async ({}, use) => {
      if (!existsSync(`${root}/dist/index.html`)) throw new Error('examples/explorer/dist is missing: run `pnpm build` first');
      const server = await preview({ root, logLevel: 'silent', preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false } });
      const { port } = server.httpServer.address() as AddressInfo;
      await use(`http://127.0.0.1:${port}`);
      await server.close();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ appUrl }, use) => use(appUrl),
  page: async ({ page }, use) => {
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
    await use(page);
    expect(problems, 'console errors or warnings during the test').toEqual([]);
  },
});
export { expect };

/** Where the screenshots go (git-ignored): look at them after a run. */
export const screenshot = (name: string): string => fileURLToPath(new URL(`../test-results/screenshots/${name}.png`, import.meta.url));

/**
 * How many requests of one operation the in-page node stub has answered (`window.explorer`, typed by
 * src/services.ts, which is type-checked with the tests).
 */
export const requests = (page: Page, operationId: string): Promise<number> =>
  page.evaluate((id) => window.explorer!.nodeStub!.requests.filter((r) => r.operationId === id).length, operationId);
