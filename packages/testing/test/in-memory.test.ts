/**
 * The in-memory fetch answers exactly as the loopback server does: the same table of requests runs over
 * both and compares status, body and headers; then what only a fetch can show (abort, redirects, reset,
 * truncation), and the clients with the stub as their `fetch`.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNodeClient } from '@x/node-client';
import { createPriceClient } from '@x/price-client';
import {
  createNodeStubFetch,
  createPriceStubFetch,
  DEFAULT_PRICE_NOW,
  startNodeStub,
  startPriceStub,
  STUB_ACCOUNTS,
  type NodeStubHandle,
  type PriceStubHandle,
} from '../src/index.ts';

const A = STUB_ACCOUNTS.alice;
/** Headers a transport may add on its own (framing, time), left out of the comparison. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

const headersOf = (r: Response): Record<string, string> => {
  const out: Record<string, string> = {};
  r.headers.forEach((v, k) => {
    if (!TRANSPORT_HEADERS.has(k)) out[k] = v;
  });
  return out;
};

type Case = { name: string; path: string; method?: string; headers?: Record<string, string> };
const NODE_CASES: Case[] = [
  { name: 'v2 account', path: `/rpc/v2/accounts/${A}` },
  { name: 'v1 account of an unknown address', path: `/rpc/v1/accounts/${STUB_ACCOUNTS.unknown}` },
  { name: 'v2 transactions, ascending page', path: `/rpc/v2/accounts/${A}/transactions?count=7&start=3` },
  { name: 'v1 coin transactions, newest first', path: `/rpc/v1/accounts/${A}/coin_transactions?count=5` },
  { name: 'v1 modules, live shapes by header', path: `/rpc/v1/accounts/0x1/modules?count=3`, headers: { 'x-stub-shapes': 'live' } },
  { name: 'v2 transactions, live shapes', path: `/rpc/v2/accounts/${A}/transactions?count=2`, headers: { 'x-stub-shapes': 'live' } },
  { name: 'v1 resource', path: `/rpc/v1/accounts/${A}/resources/0x1::account::Account` },
  { name: 'v3 transactions, live shapes', path: `/rpc/v3/accounts/${A}/transactions?count=2`, headers: { 'x-stub-shapes': 'live' } },
  { name: 'v3 coin transactions, newest first (x-supra-cursor)', path: `/rpc/v3/accounts/${A}/coin_transactions?count=5` },
  { name: 'v3 resources, live shapes (empty x-supra-cursor on the last page)', path: `/rpc/v3/accounts/${A}/resources`, headers: { 'x-stub-shapes': 'live' } },
  { name: 'v3 resource not found, live shapes (no chain id)', path: `/rpc/v3/accounts/${A}/resources/0x1::nope::Nope`, headers: { 'x-stub-shapes': 'live' } },
  { name: 'v3 503 fault', path: `/rpc/v3/accounts/${A}/transactions`, headers: { 'x-stub-fault': '503' } },
  { name: 'count over 100', path: `/rpc/v2/accounts/${A}/transactions?count=101` },
  { name: 'unknown path', path: '/rpc/v3/nothing' },
  { name: 'a method other than GET', path: `/rpc/v2/accounts/${A}`, method: 'DELETE' },
  { name: 'CORS preflight', path: `/rpc/v2/accounts/${A}`, method: 'OPTIONS' },
  { name: '503 fault', path: `/rpc/v2/accounts/${A}`, headers: { 'x-stub-fault': '503' } },
  { name: '429 fault with Retry-After', path: `/rpc/v2/accounts/${A}`, headers: { 'x-stub-fault': '429', 'x-stub-retry-after': '7' } },
  { name: 'html fault', path: `/rpc/v2/accounts/${A}`, headers: { 'x-stub-fault': 'html' } },
  { name: 'not-json fault', path: `/rpc/v2/accounts/${A}`, headers: { 'x-stub-fault': 'not-json', 'x-stub-content-type': 'text/plain' } },
  { name: 'bad fault request', path: `/rpc/v2/accounts/${A}`, headers: { 'x-stub-fault': 'flaky' } },
  { name: 'a manual redirect', path: `/rpc/v2/accounts/${A}`, headers: { 'x-stub-fault': '307', 'x-stub-redirect-to': '{url}?moved=1' } },
  { name: 'a slow answer', path: `/rpc/v2/accounts/${A}`, headers: { 'x-stub-fault': 'slow', 'x-stub-delay-ms': '20' } },
];

describe('the same table over loopback HTTP and in memory', () => {
  let server: NodeStubHandle;
  let price: PriceStubHandle;
  beforeAll(async () => {
    server = await startNodeStub({ seed: 7 });
    price = await startPriceStub({ seed: 7, now: () => DEFAULT_PRICE_NOW });
  });
  afterAll(async () => {
    await server.close();
    await price.close();
  });

  it.each(NODE_CASES)('node: $name', async ({ path, method = 'GET', headers = {} }) => {
    const memory = createNodeStubFetch({ seed: 7, url: server.url });
    const init: RequestInit = { method, headers, redirect: 'manual' };
    const overHttp = await fetch(`${server.url}${path}`, init);
    const inMemory = await memory(`${server.url}${path}`, init);
    expect(inMemory.status).toBe(overHttp.status);
    expect(headersOf(inMemory)).toEqual(headersOf(overHttp));
    expect(await inMemory.text()).toBe(await overHttp.text());
    expect(memory.requests.map((r) => [r.method, r.url, r.operationId])).toEqual([[method, path, server.requests.at(-1)?.operationId]]);
  });

  it.each<{ name: string; path: string; headers?: Record<string, string> }>([
    { name: 'history', path: '/history?trading_pair=btc_usdt&startDate=1731974400000&endDate=1732003200000&interval=3600', headers: { 'x-api-key': 'test-key' } },
    { name: 'history without a key', path: '/history?trading_pair=btc_usdt&startDate=0&endDate=1&interval=60' },
    { name: 'latest of one pair', path: '/latest?trading_pair=eth_usdt' },
    { name: 'unknown pair', path: '/latest?trading_pair=abc_def' },
    { name: '500 fault', path: '/latest', headers: { 'x-stub-fault': '500' } },
  ])('price: $name', async ({ path, headers = {} }) => {
    const memory = createPriceStubFetch({ seed: 7, url: price.url, now: () => DEFAULT_PRICE_NOW });
    const overHttp = await fetch(`${price.url}${path}`, { headers });
    const inMemory = await memory(`${price.url}${path}`, { headers });
    expect(inMemory.status).toBe(overHttp.status);
    expect(headersOf(inMemory)).toEqual(headersOf(overHttp));
    expect(await inMemory.text()).toBe(await overHttp.text());
  });
});

/** What a fault looks like to the caller of a fetch: the same over a socket and in memory. */
type Outcome = { status?: number; body?: string; rejects?: string; redirected?: boolean; url?: string };
/** An error as a test tells it apart: its name and message, and its cause's message and code (as undici's). */
const described = (err: unknown): string => {
  const e = err as Error & { cause?: Error & { code?: string } };
  return `${e.name}: ${e.message}${e.cause ? ` (cause: ${e.cause.message}${e.cause.code ? `, ${e.cause.code}` : ''})` : ''}`;
};
async function outcome(f: (input: string, init?: RequestInit) => Promise<Response>, url: string, init: RequestInit): Promise<Outcome> {
  let r: Response;
  try {
    r = await f(url, init);
  } catch (err) {
    return { rejects: err === (init.signal as AbortSignal | undefined)?.reason ? 'the signal reason' : described(err) };
  }
  const body = await r.text().then(
    () => 'read',
    (err: unknown) => `errors: ${described(err)}`,
  );
  return { status: r.status, body, redirected: r.redirected, url: r.url.replace(/^http:\/\/[^/]+/, '') };
}

const FETCH_FAULTS: Array<{ name: string; headers: Record<string, string>; init?: RequestInit; abortAfterMs?: number }> = [
  { name: 'reset', headers: { 'x-stub-fault': 'reset' } },
  { name: 'truncated', headers: { 'x-stub-fault': 'truncated' } },
  { name: 'slow, then aborted', headers: { 'x-stub-fault': 'slow', 'x-stub-delay-ms': '60000' }, abortAfterMs: 30 },
  { name: 'a redirect followed', headers: { 'x-stub-fault': '307', 'x-stub-redirect-to': '{url}?moved=1', 'x-stub-fault-times': '1', 'x-stub-fault-key': 'k' } },
  { name: "a redirect with redirect: 'error'", headers: { 'x-stub-fault': '308', 'x-stub-redirect-to': '{url}?moved=1' }, init: { redirect: 'error' } },
  { name: 'too many redirects', headers: { 'x-stub-fault': '302', 'x-stub-redirect-to': '{url}' } },
];

describe('faults only a fetch shows: the same table over a socket and in memory', () => {
  it.each(FETCH_FAULTS)('$name', async ({ headers, init = {}, abortAfterMs }) => {
    const server = await startNodeStub({ seed: 3 });
    try {
      const memory = createNodeStubFetch({ seed: 3, url: server.url });
      const run = async (f: (input: string, init?: RequestInit) => Promise<Response>): Promise<Outcome> => {
        const controller = new AbortController();
        if (abortAfterMs !== undefined) setTimeout(() => controller.abort(new Error('test gave up')), abortAfterMs);
        return outcome(f, `${server.url}/rpc/v2/accounts/0x1`, { ...init, headers, signal: controller.signal });
      };
      const overHttp = await run(fetch);
      expect(await run(memory)).toEqual(overHttp);
    } finally {
      await server.close();
    }
  });
});

describe('what a fetch shows', () => {
  it('a slow answer rejects with the signal reason on abort, and its timer is gone', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const stub = createNodeStubFetch();
      const controller = new AbortController();
      const pending = stub(`${stub.url}/rpc/v2/accounts/0x1`, { headers: { 'x-stub-fault': 'slow', 'x-stub-delay-ms': '60000' }, signal: controller.signal });
      await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
      const reason = new Error('gave up');
      controller.abort(reason);
      await expect(pending).rejects.toBe(reason);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an abort between redirect hops ends the call', async () => {
    const stub = createNodeStubFetch();
    const controller = new AbortController();
    const fetchOnce = stub;
    // The first hop answers a redirect; the abort lands before the next hop is asked.
    const pending = fetchOnce(`${stub.url}/rpc/v2/accounts/0x1`, {
      headers: { 'x-stub-fault': '307', 'x-stub-redirect-to': '{url}?moved=1', 'x-stub-fault-times': '1', 'x-stub-fault-key': 'abort-hop' },
      signal: controller.signal,
    });
    const reason = new Error('gave up between hops');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('hands the request as it came to the fallback (method, body, headers)', async () => {
    const seen: Array<{ method: string; body: string; header: string | null }> = [];
    const stub = createNodeStubFetch({
      fallback: async (request) => {
        seen.push({ method: request.method, body: await request.text(), header: request.headers.get('x-trace') });
        return new Response('{}', { status: 201 });
      },
    });
    const r = await stub('http://elsewhere.test/submit', { method: 'POST', body: 'hello', headers: { 'x-trace': 't1' } });
    expect(r.status).toBe(201);
    expect(seen).toEqual([{ method: 'POST', body: 'hello', header: 't1' }]);
  });

  it('failNext waits for a GET of its operation, found in a percent-encoded path too', async () => {
    const stub = createNodeStubFetch();
    stub.failNext('listTransactionsV2', 503);
    expect((await stub(`${stub.url}/rpc/v2/accounts/0x1/transactions`, { method: 'DELETE' })).status).toBe(405);
    expect((await stub(`${stub.url}/rpc/v2/accounts/0x1/%74ransactions`)).status).toBe(503);
    expect((await stub(`${stub.url}/rpc/v2/accounts/0x1/transactions`)).status).toBe(200);
    expect(stub.requests.map((r) => r.operationId)).toEqual(['listTransactionsV2', 'listTransactionsV2', 'listTransactionsV2']);
  });

  it('an aborted signal rejects before anything is recorded', async () => {
    const stub = createNodeStubFetch();
    await expect(stub(`${stub.url}/rpc/v2/accounts/0x1`, { signal: AbortSignal.abort(new Error('early')) })).rejects.toThrow('early');
    expect(stub.requests).toEqual([]);
  });

  it('a reset rejects with TypeError, as fetch does when the connection drops', async () => {
    const stub = createNodeStubFetch();
    await expect(stub(`${stub.url}/rpc/v2/accounts/0x1`, { headers: { 'x-stub-fault': 'reset' } })).rejects.toThrow(TypeError);
  });

  it('a truncated body errors half way, after the status and headers', async () => {
    const stub = createNodeStubFetch();
    const r = await stub(`${stub.url}/rpc/v2/accounts/${A}/transactions`, { headers: { 'x-stub-fault': 'truncated' } });
    expect(r.status).toBe(200);
    await expect(r.text()).rejects.toThrow(TypeError);
  });

  it('follows redirects as fetch does: url and redirected set, loop limit, redirect: error', async () => {
    const stub = createNodeStubFetch();
    const headers = { 'x-stub-fault': '302', 'x-stub-redirect-to': '{url}?moved=1', 'x-stub-fault-times': '1', 'x-stub-fault-key': 'hop' };
    const r = await stub(`${stub.url}/rpc/v2/accounts/0x1`, { headers });
    expect([r.status, r.redirected, r.url]).toEqual([200, true, `${stub.url}/rpc/v2/accounts/0x1?moved=1`]);
    await expect(stub(`${stub.url}/rpc/v2/accounts/0x1`, { headers: { ...headers, 'x-stub-fault-times': '100', 'x-stub-fault-key': 'loop' } })).rejects.toThrow(TypeError);
    await expect(stub(`${stub.url}/rpc/v2/accounts/0x2`, { headers: { ...headers, 'x-stub-fault-key': 'error-mode' }, redirect: 'error' })).rejects.toThrow(TypeError);
  });

  it('another origin goes to the fallback, or fails as an unreachable host', async () => {
    const price = createPriceStubFetch();
    const node = createNodeStubFetch({ fallback: (request) => price(request) });
    expect((await node(`${price.url}/latest`)).status).toBe(200);
    await expect(createNodeStubFetch()(`${price.url}/latest`)).rejects.toThrow(TypeError);
  });
});

describe('the clients with the stub as their fetch', () => {
  it('node: an account, a page walk, and failNext with retries', async () => {
    const stub = createNodeStubFetch({ shapes: 'live' });
    const node = createNodeClient({ baseUrl: stub.url, fetch: stub, retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 } });
    stub.failNext('getAccountV2', 502, 2);
    expect((await node.v2.getAccount(STUB_ACCOUNTS.exactly101)).sequence_number).toBe(101);
    let n = 0;
    for await (const tx of node.v2.transactions(STUB_ACCOUNTS.exactly101, { start: 0 })) if (tx.status === 'Success') n++;
    expect(n).toBe(101);
    expect(stub.requests.slice(0, 3).map((r) => r.operationId)).toEqual(['getAccountV2', 'getAccountV2', 'getAccountV2']);
  });

  it('price: history with the key, and a queued fault that is not retried', async () => {
    const stub = createPriceStubFetch();
    const prices = createPriceClient({ baseUrl: stub.url, apiKey: stub.apiKey, fetch: stub, retry: false });
    const candles = await prices.history({ pair: 'btc_usdt', start: stub.now() - 86_400_000, end: stub.now(), resolution: 3600 });
    expect(candles.length).toBeGreaterThan(20);
    stub.failNext('getLatest', 404);
    await expect(prices.latest({ pair: 'btc_usdt' })).rejects.toMatchObject({ code: 'HTTP_ERROR', status: 404 });
    expect((await prices.latest({ pair: 'btc_usdt' })).instruments).toHaveLength(1);
  });
});
