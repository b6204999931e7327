/**
 * Global setup of the browser project, in Node: fails when there is no browser (saying how to get one),
 * starts the stubs on 127.0.0.1 (ports chosen now; the page is on localhost, another origin), builds the
 * minified production bundle of the clients, and provides their URLs to the tests (`inject`).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { DEFAULT_PRICE_NOW, STUB_ACCOUNT_FACTS, STUB_ACCOUNTS, startNodeStub, startPriceStub, type AccountFacts } from '@x/testing';
import { findBrowser } from './config.ts';
import { setStubRegistry } from './registry.ts';

/** The price stub's key; tests are the only users of it. */
export const PRICE_KEY = 'browser-test-key-5b1f';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URLs of the stubs, e.g. `http://127.0.0.1:41234`. */
    nodeUrl: string;
    priceUrl: string;
    priceKey: string;
    /** Path of the minified production bundle of both clients and the validators, under the page's origin. */
    minBundle: string;
    /** The stub's accounts and their seed-independent counts (the stubs' modules use node: built-ins). */
    accounts: Record<keyof typeof STUB_ACCOUNTS, string>;
    facts: Record<Exclude<keyof typeof STUB_ACCOUNTS, 'unknown'>, AccountFacts>;
  }
}

const root = fileURLToPath(new URL('../../..', import.meta.url));

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const browser = findBrowser();
  if (browser.problem !== undefined) throw new Error(browser.problem);
  const missing = ['node-client', 'price-client', 'validators', 'client-core', 'common'].filter((p) => !existsSync(`${root}packages/${p}/dist/index.js`));
  if (missing.length > 0) {
    throw new Error(`The browser tests import the built packages; ${missing.join(', ')} ha${missing.length > 1 ? 've' : 's'} no dist/. Run \`pnpm build\` first.`);
  }

  // What an application's production build does: one minified ESM bundle for browsers.
  const outDir = fileURLToPath(new URL('../dist', import.meta.url));
  mkdirSync(outDir, { recursive: true });
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('./bundle-entry.ts', import.meta.url))],
    outfile: `${outDir}/clients.min.js`,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  // A browser bundle of the packages needs no polyfills and gives no warnings.
  if (bundled.warnings.length > 0) {
    throw new Error(`bundling the clients for browsers warned:\n${bundled.warnings.map((w) => `  ${w.text} (${w.location?.file ?? '?'})`).join('\n')}`);
  }

  const node = await startNodeStub({ port: 0, seed: 42 });
  // The price clock fixed (the stubs' default is the wall clock): the browser tests ask for the day before it.
  const price = await startPriceStub({ port: 0, seed: 42, apiKey: PRICE_KEY, now: () => DEFAULT_PRICE_NOW });
  setStubRegistry({ handles: { node, price } });
  project.provide('nodeUrl', node.url);
  project.provide('priceUrl', price.url);
  project.provide('priceKey', PRICE_KEY);
  project.provide('accounts', { ...STUB_ACCOUNTS });
  project.provide('facts', { ...STUB_ACCOUNT_FACTS });
  project.provide('minBundle', `/${fileURLToPath(new URL('../dist/clients.min.js', import.meta.url)).slice(root.length)}`);
  return async () => {
    setStubRegistry(undefined);
    await Promise.all([node.close(), price.close()]);
  };
}
