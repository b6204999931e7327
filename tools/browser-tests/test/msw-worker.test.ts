/**
 * public/mockServiceWorker.js (msw's service worker, which the page serves for tests/msw.test.ts) is the
 * one of the installed msw, byte for byte: msw warns when the worker and the library differ.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';

it('public/mockServiceWorker.js is the installed msw worker (else: pnpm --filter @x-tools/browser-tests msw:init)', () => {
  // msw is a devDependency of @x/testing, whose msw the browser test imports.
  const fromMsw = createRequire(new URL('../../../packages/testing/package.json', import.meta.url)).resolve('msw/mockServiceWorker.js');
  const served = readFileSync(new URL('../public/mockServiceWorker.js', import.meta.url), 'utf8');
  expect(served === readFileSync(fromMsw, 'utf8'), 'regenerate it: pnpm --filter @x-tools/browser-tests msw:init').toBe(true);
});
