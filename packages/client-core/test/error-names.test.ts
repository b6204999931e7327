/**
 * Error names survive bundling: with both clients in one minified esbuild bundle (as an app ships them),
 * every error's `name` is its class's name, not what the minifier renamed the class to (`Ce`), and the
 * two clients' classes are one set, so `instanceof` holds across them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as NodeClient from '@x/node-client';
import type * as PriceClient from '@x/price-client';
import { startSilentServer } from '@x-tools/scripted-server';

const src = (pkg: string): string => fileURLToPath(new URL(`../../${pkg}/src/index.ts`, import.meta.url));

type Bundle = {
  node: typeof NodeClient;
  price: typeof PriceClient;
};

let dir: string;
let bundle: Bundle;
let minified: string;
beforeAll(async () => {
  const result = await build({
    stdin: { contents: "export * as node from '@x/node-client'; export * as price from '@x/price-client';", resolveDir: process.cwd(), loader: 'ts' },
    alias: { '@x/node-client': src('node-client'), '@x/price-client': src('price-client'), '@x/client-core': src('client-core'), '@x/node-types': src('node-types') },
    // An alias maps a package's subpaths under its file too: the internal subpath is a file of its own.
    plugins: [{ name: 'internal', setup: (b) => b.onResolve({ filter: /^@x\/client-core\/internal$/ }, () => ({ path: fileURLToPath(new URL('../src/internal.ts', import.meta.url)) })) }],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
  });
  minified = result.outputFiles[0]!.text;
  dir = mkdtempSync(join(tmpdir(), 'error-names-'));
  const file = join(dir, 'bundle.mjs');
  writeFileSync(file, minified);
  bundle = (await import(pathToFileURL(file).href)) as Bundle;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('error names in a minified bundle with both clients', () => {
  it('the bundle is minified: the class names are gone from it', () => {
    expect(minified).not.toMatch(/class HttpError\b/);
  });

  it.each([
    ['InvalidArgumentError', 'INVALID_ARGUMENT', () => bundle.node.createNodeClient().v2.getAccount('not an address')],
    ['InvalidArgumentError', 'INVALID_ARGUMENT', () => bundle.price.createPriceClient({ apiKey: 'k' }).history({ pair: 'BTC', start: 0, end: 1, resolution: 60 })],
    ['NetworkError', 'NETWORK_ERROR', () => bundle.node.createNodeClient({ baseUrl: 'http://127.0.0.1:9', retry: false }).v2.getAccount('0x1')],
    ['NetworkError', 'NETWORK_ERROR', () => bundle.price.createPriceClient({ baseUrl: 'http://127.0.0.1:9', retry: false }).latest()],
  ] as const)('%s (%s) thrown by a client reads as its name', async (name, code, call) => {
    const err = await call().then(() => undefined, (e: unknown) => e);
    expect(err).toMatchObject({ name, code });
    expect(String(err)).toMatch(new RegExp(`^${name}: `));
  });

  it('a timeout reads TimeoutError, and is an instance of the other client\'s class', async () => {
    const server = await startSilentServer();
    try {
      const err = await bundle.node.createNodeClient({ baseUrl: server.url, retry: false, timeoutMs: 50 }).v2.getAccount('0x1').then(() => undefined, (e: unknown) => e);
      expect(err).toMatchObject({ name: 'TimeoutError', code: 'TIMEOUT' });
      expect(err).toBeInstanceOf(bundle.price.TimeoutError);
      expect(err).toBeInstanceOf(bundle.price.ClientError);
    } finally {
      await server.close();
    }
  });

  it('every class exported by both clients is the same class, and names itself', () => {
    const names = ['ClientError', 'InvalidArgumentError', 'HttpError', 'NetworkError', 'TimeoutError', 'ResponseParseError', 'ResponseValidationError'] as const;
    for (const name of names) expect(bundle.node[name], name).toBe(bundle.price[name]);
    const made = [
      new bundle.node.HttpError({ status: 503, body: undefined, method: 'GET', url: 'http://x/' }),
      new bundle.node.TimeoutError({ method: 'GET', url: 'http://x/', timeoutMs: 1 }),
      new bundle.node.ResponseParseError({ status: 200, method: 'GET', url: 'http://x/' }),
      new bundle.node.ResponseValidationError({ operationId: 'getAccountV2', issues: [], body: null }),
    ];
    expect(made.map((e) => e.name)).toEqual(['HttpError', 'TimeoutError', 'ResponseParseError', 'ResponseValidationError']);
  });
});
