/**
 * The committed copy of msw's service worker (public/mockServiceWorker.js here, which the page serves for
 * tests/msw.test.ts) is the one of the msw installed beside it, byte for byte: msw warns when the worker
 * and the library differ, and pnpm runs no msw postinstall that would refresh it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';

it.each([
  // msw is a devDependency of @x/testing, whose msw the browser test imports.
  ['tools/browser-tests', '../../../packages/testing/package.json', '../public/mockServiceWorker.js', 'pnpm --filter @x-tools/browser-tests msw:init'],
])('%s: public/mockServiceWorker.js is the installed msw worker', (_where, owner, copy, regenerate) => {
  const fromMsw = createRequire(new URL(owner, import.meta.url)).resolve('msw/mockServiceWorker.js');
  const served = readFileSync(new URL(copy, import.meta.url), 'utf8');
  expect(served === readFileSync(fromMsw, 'utf8'), `regenerate it: ${regenerate}`).toBe(true);
});
