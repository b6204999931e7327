/**
 * The clients' handling of redirects a browser hides, in Node: a fetch that answers a manual redirect as
 * a browser does (an `opaqueredirect` response: status 0, no headers) and follows the rest with undici.
 * The redirects are queued on the stub (`failNext`), so that they answer the client's probe too, which
 * carries none of the request's headers. The browser project runs the same cases in Chromium; these pin
 * the details fast.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPriceClient, NetworkError } from '@x/price-client';
import { DEFAULT_PRICE_NOW, startNodeStub, startPriceStub, type NodeStubHandle, type PriceStubHandle } from '@x/testing';
import { startScriptedServer } from '@x-tools/scripted-server';

const KEY = 'opaque-test-key-91';
/** The price stub's clock, fixed (its default is the wall clock). */
const NOW = DEFAULT_PRICE_NOW;
const q = { pair: 'btc_usdt', start: NOW - 86_400_000, end: NOW, resolution: 3600 };

/** fetch as a browser behaves: a manual redirect is opaque. */
async function browserLikeFetch(request: Request): Promise<Response> {
  const response = await fetch(request);
  if (request.redirect !== 'manual' || response.status < 300 || response.status > 399) return response;
  await response.body?.cancel();
  const opaque = new Response(null, { status: 200 });
  Object.defineProperties(opaque, { type: { value: 'opaqueredirect' }, status: { value: 0 }, ok: { value: false }, headers: { value: new Headers() } });
  return opaque;
}

let price: PriceStubHandle;
let node: NodeStubHandle;
beforeAll(async () => {
  price = await startPriceStub({ port: 0, apiKey: KEY, now: () => NOW });
  node = await startNodeStub({ port: 0 });
});
afterAll(async () => {
  await Promise.all([price.close(), node.close()]);
});
beforeEach(() => {
  price.reset();
  node.reset();
});

const client = (headers: Record<string, string>) =>
  createPriceClient({ baseUrl: price.url, apiKey: KEY, retry: false, fetch: browserLikeFetch, headers });

describe('a keyed redirect a browser hides', () => {
  it('under the base URL: found with no header and no key, then the key goes only to where it ended', async () => {
    price.failNext('getHistory', 307, 2, { redirectTo: '{url}&moved=1' });
    expect(await client({}).history(q)).toHaveLength(24);
    const path = price.requests[0]!.url;
    expect(price.requests.map((r) => [r.url, r.headers['x-api-key']])).toEqual([
      [path, KEY],
      [path, undefined],
      [`${path}&moved=1`, undefined],
      [`${path}&moved=1`, KEY],
    ]);
  });

  it("to another origin: a NetworkError saying where, and nothing of the caller's went there", async () => {
    price.failNext('getHistory', 302, 2, { redirectTo: `${node.url}/history` });
    const err = await client({ authorization: 'Bearer caller' }).history(q).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toContain(`redirect not followed: it leads to another origin (${node.url})`);
    expect(node.requests.length).toBeGreaterThan(0);
    for (const r of node.requests) expect([r.headers['x-api-key'], r.headers.authorization]).toEqual([undefined, undefined]);
  });

  it('to a place that cannot be reached: a NetworkError that says why, the key not sent on', async () => {
    price.failNext('getHistory', 301, 2, { redirectTo: 'http://127.0.0.1:9/history' });
    const err = await client({}).history(q).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toMatch(/this browser hides where to \(an opaque redirect\); following it without them failed/);
    expect((err as Error).message).not.toContain(KEY);
    expect(price.requests.map((r) => r.headers['x-api-key'])).toEqual([KEY, undefined]);
  });

  it('only for keyed requests: a NetworkError that says why, the key not sent on', async () => {
    const server = await startScriptedServer((req, res) => {
      if (req.headers['x-api-key'] !== undefined) res.writeHead(307, { location: '/elsewhere' }).end();
      else res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"missing_api_key"}');
    });
    try {
      const prices = createPriceClient({ baseUrl: server.url, apiKey: KEY, retry: false, fetch: browserLikeFetch });
      const err = await prices.history(q).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NetworkError);
      expect((err as Error).message).toMatch(/a request without them is not redirected, so they were not sent on/);
      expect(server.requests.map((r) => [r.url.split('?')[0], r.headers['x-api-key']])).toEqual([
        ['/history', KEY],
        ['/history', undefined],
      ]);
    } finally {
      await server.close();
    }
  });
});
