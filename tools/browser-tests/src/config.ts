/**
 * The browser test project of the root vitest config: vitest browser mode, the playwright provider, the
 * system Chromium (headless, `--no-sandbox`), the page served by vitest on `localhost` (another origin
 * than the stubs on 127.0.0.1) with `Content-Security-Policy: script-src 'self'`.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { playwright } from '@vitest/browser-playwright';
import type { Plugin, TestProjectInlineConfiguration } from 'vitest/config';
import { mswWorker } from './msw-worker.ts';
import { stubRegistry, type StubName } from './registry.ts';

/** Where a system Chromium or Chrome usually is (Debian's `chromium` package installs the first). */
export const USUAL_BROWSER_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

export const NO_BROWSER_HELP = [
  'The browser test project needs a Chromium or Chrome executable, and none was found.',
  '  Set CHROME_PATH to one, or install it: on Debian/Ubuntu `apt-get install -y chromium` (as root), on macOS install Google Chrome.',
  `  Looked at: ${USUAL_BROWSER_PATHS.join(', ')}.`,
  '  (Playwright downloads no browser here: packages are installed with PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1.)',
].join('\n');

/**
 * The browser to launch: `CHROME_PATH` when set (it must exist), else the first of the usual paths.
 * `undefined` when there is none; the project's global setup then fails with {@link NO_BROWSER_HELP}.
 */
export function findBrowser(env: NodeJS.ProcessEnv = process.env): { path?: string; problem?: string } {
  const fromEnv = env.CHROME_PATH?.trim();
  if (fromEnv) {
    return existsSync(fromEnv) ? { path: fromEnv } : { problem: `CHROME_PATH is set to '${fromEnv}', which does not exist.\n${NO_BROWSER_HELP}` };
  }
  const found = USUAL_BROWSER_PATHS.find((p) => existsSync(p));
  return found === undefined ? { problem: NO_BROWSER_HELP } : { path: found };
}

/** The policy of the test page: scripts from the page's own origin only, so no eval and no `new Function`. */
export const PAGE_CSP = "script-src 'self'";

/** `'sha256-…'` sources of the inline scripts of an HTML page. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/.test(m[1]!) || m[2]!.length === 0) continue;
    hashes.add(`'sha256-${createHash('sha256').update(m[2]!, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}

/**
 * Serves every response with {@link PAGE_CSP}. Vitest's tester page bootstraps itself with two inline
 * scripts (its configuration, with a fresh id per page); those exact scripts are allowed by their
 * hashes, nothing else inline and nothing evaluated. The middleware goes first in the stack, ahead of
 * vitest's own page handlers (which keep a CSP they find and only widen `frame-ancestors`).
 */
export function cspPlugin(): Plugin {
  const csp = (_req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    res.setHeader('Content-Security-Policy', PAGE_CSP);
    const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
    // The tester page is written in one `write`; hash its inline scripts into the header before it goes.
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      const type = String(res.getHeader('content-type') ?? '');
      const current = res.getHeader('content-security-policy');
      if (!res.headersSent && typeof current === 'string' && type.startsWith('text/html') && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) {
        const hashes = inlineScriptHashes(String(chunk));
        if (hashes.length > 0) res.setHeader('Content-Security-Policy', current.replace("script-src 'self'", `script-src 'self' ${hashes.join(' ')}`));
      }
      return write(chunk, ...rest);
    }) as typeof res.write;
    next();
  };
  return {
    name: 'x-browser-tests:csp',
    configureServer(server) {
      (server.middlewares.stack as Array<{ route: string; handle: unknown }>).unshift({ route: '', handle: csp });
    },
  };
}

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/** The `browser` project of the root config. */
export function browserProject(): TestProjectInlineConfiguration {
  const browser = findBrowser();
  return {
    // mswWorker: /mockServiceWorker.js for the setupWorker test (tests/msw.test.ts), from the msw it
    // imports, @x/testing's.
    plugins: [cspPlugin(), mswWorker({ from: here('../../../packages/testing') })],
    // The page imports the built packages by name (their dist/), as an application bundles them: no
    // alias to src here, unlike the Node projects.
    server: { host: 'localhost' },
    test: {
      name: 'browser',
      include: ['tools/browser-tests/tests/**/*.test.ts'],
      globalSetup: [here('./global-setup.ts')],
      testTimeout: 20_000,
      browser: {
        enabled: true,
        headless: true,
        screenshotFailures: false,
        provider: playwright({
          launchOptions: {
            // Without a browser the global setup fails first, saying how to get one.
            ...(browser.path === undefined ? {} : { executablePath: browser.path }),
            args: ['--no-sandbox'],
          },
        }),
        instances: [{ browser: 'chromium' }],
        commands: {
          /** What a stub received (method, url, headers), for assertions about preflights and the key. */
          stubRequests: (_ctx, name: StubName) => stubRegistry().handles[name].requests.map((r) => ({ ...r })),
          /** Empties a stub's request log and its fault counters. */
          resetStub: (_ctx, name: StubName) => {
            stubRegistry().handles[name].reset();
          },
          /** Queues a fault on a stub, as `failNext` does (a redirect answers the browser's header-less probe too). */
          failNext: (_ctx, name: StubName, operationId: string, kind: number | string, times?: number, options?: Record<string, string>) => {
            (stubRegistry().handles[name] as { failNext(id: string, kind: unknown, times?: number, options?: unknown): void }).failNext(operationId, kind, times, options);
          },
        },
      },
    },
  };
}
