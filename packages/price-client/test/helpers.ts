/**
 * The price client's own test plumbing: the key its stub requires (`usePriceStub({ apiKey: KEY })` of
 * `@x-tools/test-helpers`), clients of that stub, and checks that the key never shows.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { expect } from 'vitest';
import { createPriceClient, type PriceClient, type PriceClientOptions } from '@x/price-client';
import { DEFAULT_PRICE_NOW, type PriceStubHandle } from '@x/testing';
import { startScriptedServer, type ScriptedServer } from '@x-tools/scripted-server';

/** A key no message, URL or header name could contain by accident. */
export const KEY = 'sk-live-7f3a9c51-PRICE-SECRET-e2b8';
/** The stub's clock in these tests: `usePriceStub` fixes it at `DEFAULT_PRICE_NOW` (the library's default is the wall clock). */
export const NOW = DEFAULT_PRICE_NOW;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

/** A client of the stub with the key; retries sleep for no time unless `retry` says otherwise. */
export function client(stub: PriceStubHandle, options: PriceClientOptions = {}): PriceClient {
  return createPriceClient({ baseUrl: stub.url, apiKey: KEY, retry: { sleep: async () => undefined }, ...options });
}

/** The query a recorded request carried, as an object (every stub request has at most one of each). */
export function queryOf(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url, 'http://stub').searchParams);
}

/**
 * Everything a reader of an error could print: String(err), JSON.stringify(err), err.stack and
 * util.inspect(err, { depth: 10 }), for the error and each of its causes.
 */
export function renderings(err: unknown): string[] {
  const out: string[] = [];
  let e: unknown = err;
  for (let depth = 0; e !== undefined && e !== null && depth < 10; depth++) {
    out.push(String(e), JSON.stringify(e) ?? '', inspect(e, { depth: 10, showHidden: true }));
    if (e instanceof Error) out.push(e.stack ?? '', e.message);
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

/** Asserts that the key appears in no rendering of `value`. */
export function expectNoKey(value: unknown): void {
  for (const text of renderings(value)) expect(text).not.toContain(KEY);
}

/** A small loopback server for the cases the stub cannot play (redirects, a server echoing the key). */
export function startServer(handler: (req: IncomingMessage, res: ServerResponse, origin: string) => void): Promise<ScriptedServer> {
  return startScriptedServer((req, res, { origin }) => handler(req, res, origin));
}
