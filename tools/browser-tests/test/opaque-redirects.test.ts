/**
 * The clients' handling of redirects a browser hides, in Node: a fetch that answers a manual redirect as
 * a browser does (an `opaqueredirect` response: status 0, no headers). Finding where one leads would take
 * a second request, so it is refused with a NetworkError that `explain` explains, and nothing is sent again.
 * The browser project runs the same cases in Chromium; these pin the details fast.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPriceClient, explain, NetworkError } from '@x/price-client';
import { DEFAULT_PRICE_NOW, startNodeStub, startPriceStub, type NodeStubHandle, type PriceStubHandle } from '@x/testing';

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
  it.each([
    ['under the base URL', 307, '{url}&moved=1'],
    ['to another origin', 302, '{node}/history'],
    ['to a place that cannot be reached', 301, 'http://127.0.0.1:9/history'],
  ])('%s: refused with a NetworkError that explain() explains, and nothing is sent again', async (_, status, to) => {
    price.failNext('getHistory', status, 1, { redirectTo: to.replace('{node}', node.url) });
    const err = await client({ authorization: 'Bearer caller' }).history(q).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ code: 'NETWORK_ERROR', method: 'GET' });
    expect((err as Error).message).toContain('opaque redirect');
    expect((err as Error).message).not.toContain(KEY);
    expect(explain(err)).toContain('Point `baseUrl` where the service moved');
    // One request, the caller's; no probe, and nothing of the caller's anywhere else.
    expect(price.requests.map((r) => r.headers['x-api-key'])).toEqual([KEY]);
    expect(node.requests).toEqual([]);
  });
});
