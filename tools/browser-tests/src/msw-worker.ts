/**
 * msw's service worker script, `mockServiceWorker.js`, served from the installed msw instead of a copy
 * committed to a public directory (what `msw init` writes): a copy goes stale when msw is upgraded, and msw
 * warns when the worker and the library differ. Used by the browser test project and the example explorer's
 * `vite.config.ts`. (msw 3 ships a plugin of its own for this, `msw/vite`; this repository is on msw 2.)
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Plugin } from 'vitest/config';

/** The worker's file name: `setupWorker().start()` registers `/mockServiceWorker.js` unless told another URL. */
const MSW_WORKER = 'mockServiceWorker.js';

/** The worker script of the msw that a package in `dir` imports (its own dependency, as Node resolves it). */
function mswWorkerPath(dir: string): string {
  return createRequire(join(dir, 'package.json')).resolve(`msw/${MSW_WORKER}`);
}

/**
 * A Vite plugin: the dev server (vitest browser mode's too) answers `<base>mockServiceWorker.js` with the
 * worker script of the msw installed for `from` (a directory; the Vite root by default), read at each
 * request; `vite build` writes it to the output's root, where `vite preview` and any static host serve it.
 */
export function mswWorker(options: { from?: string } = {}): Plugin {
  let worker = '';
  let url = `/${MSW_WORKER}`;
  return {
    name: 'x:msw-worker',
    configResolved(config) {
      worker = mswWorkerPath(options.from ?? config.root);
      // A relative base ('./') is a build option: the dev server serves from '/'.
      url = `${config.base.startsWith('/') ? config.base : '/'}${MSW_WORKER}`;
    },
    configureServer(server) {
      // Added here, the middleware runs before Vite's own (and vitest's fallback to its msw's worker).
      server.middlewares.use((req, res, next) => {
        if (req.url?.split('?')[0] !== url) return next();
        res.setHeader('Content-Type', 'text/javascript');
        res.setHeader('Cache-Control', 'no-cache');
        res.end(readFileSync(worker));
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: MSW_WORKER, source: readFileSync(worker) });
    },
  };
}
