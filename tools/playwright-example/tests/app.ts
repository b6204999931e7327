/**
 * The app under test, served as a dev server would serve it: `app/index.html` from a tiny node:http
 * server on a free port of 127.0.0.1, one per worker, set as `baseURL` so that tests call `page.goto('/…')`.
 * Its origin (its own port) differs from the node stub's, so the page's fetch is cross-origin.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test as base } from '@playwright/test';

const page = readFileSync(new URL('../app/index.html', import.meta.url));

export const test = base.extend<object, { appUrl: string }>({
  appUrl: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern
    async ({}, use) => {
      const server = createServer((req, res) => {
        const path = new URL(req.url ?? '/', 'http://app').pathname;
        if (req.method !== 'GET' || path !== '/') {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ appUrl }, use) => use(appUrl),
});
export { expect } from '@playwright/test';
