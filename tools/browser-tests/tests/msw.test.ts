/**
 * `@x/testing/msw` in Chromium with msw's `setupWorker`: the service worker (mockServiceWorker.js of
 * the msw imported here, served at the page's root by src/msw-worker.ts) hands the page's requests to the stub handlers, which answer from the same
 * engine as the in-memory stub: the page's own `fetch` gets the in-memory stub's status, headers and
 * body, and both clients (with no `fetch` of their own) work against it, faults and keys included.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { createNodeClient, HttpError, NetworkError } from '@x/node-client';
import { createPriceClient } from '@x/price-client';
import { createNodeStubFetch, createPriceStubFetch, DEFAULT_PRICE_NOW, STUB_ACCOUNTS } from '@x/testing';
import { nodeHandlers, priceHandlers } from '@x/testing/msw';
// msw is a (dev) dependency of @x/testing, not of this project: its browser entry by path, the same
// module file `@x/testing/msw` imports `msw` from, so both share one msw.
import { setupWorker } from '../../../packages/testing/node_modules/msw/lib/browser/index.mjs';
import { rejection } from './helpers.ts';

const A = STUB_ACCOUNTS.alice;
// Origins nothing listens on: only the service worker can answer them.
const node = nodeHandlers({ seed: 42, baseUrl: 'http://node.msw.test', accounts: { carol: { transactions: [{ to: 'alice', amount: 5 }] } } });
const prices = priceHandlers({ seed: 42, baseUrl: 'https://prices.msw.test', apiKey: 'msw-key', now: () => DEFAULT_PRICE_NOW });
const worker = setupWorker(...node, ...prices);

beforeAll(async () => {
  // `bypass`, not `error`: a service worker serves its whole origin, so while it runs it also sees the
  // requests of the other test files' pages (vitest runs files in parallel tabs of one origin); those
  // must reach the network as they would without it.
  await worker.start({ quiet: true, onUnhandledRequest: 'bypass', serviceWorker: { url: '/mockServiceWorker.js' } });
});
afterEach(() => {
  worker.resetHandlers();
  node.reset();
  prices.reset();
});
afterAll(async () => {
  worker.stop();
  // Leave no worker behind for the files that run after this one.
  await (await navigator.serviceWorker.getRegistration('/'))?.unregister();
});

it('answers the clients, which have no fetch of their own', async () => {
  const client = createNodeClient({ baseUrl: node.url, retry: { attempts: 2, baseDelayMs: 1 } });
  node.failNext('getAccountV2', 503, 1, { retryAfter: '0' });
  expect((await client.v2.getAccount(node.accounts.carol!)).sequence_number).toBe(1);
  expect(node.requests.map((r) => r.operationId)).toEqual(['getAccountV2', 'getAccountV2']);
});

it('is served the worker script of the msw it imports, byte for byte', async () => {
  const served = await fetch('/mockServiceWorker.js');
  expect([served.status, served.headers.get('content-type')]).toEqual([200, 'text/javascript']);
  // readFile is relative to the repository's root; msw exports this file as msw/mockServiceWorker.js.
  const installed = await commands.readFile('packages/testing/node_modules/msw/lib/mockServiceWorker.js');
  expect((await served.text()) === installed, 'the worker served is not the installed msw one').toBe(true);
});

/** Headers a page can read, sorted by name. */
const headersOf = (r: Response): Record<string, string> => Object.fromEntries([...r.headers].sort(([a], [b]) => a.localeCompare(b)));

describe('the page fetch, answered by the worker as the in-memory stub answers', () => {
  it.each<{ name: string; path: string; headers?: Record<string, string> }>([
    { name: 'v2 account', path: `/rpc/v2/accounts/${A}` },
    { name: 'v2 transactions, ascending page', path: `/rpc/v2/accounts/${A}/transactions?count=5&start=2` },
    { name: 'v1 coin transactions, live shapes', path: `/rpc/v1/accounts/${A}/coin_transactions?count=3`, headers: { 'x-stub-shapes': 'live' } },
    { name: 'v2 resource', path: `/rpc/v2/accounts/${A}/resources/0x1::account::Account` },
    { name: 'v2 unknown account', path: `/rpc/v2/accounts/${STUB_ACCOUNTS.unknown}` },
    { name: 'count over 100', path: `/rpc/v2/accounts/${A}/transactions?count=101` },
    { name: '429 fault with Retry-After', path: `/rpc/v2/accounts/${A}`, headers: { 'x-stub-fault': '429', 'x-stub-retry-after': '7' } },
  ])('node: $name', async ({ path, headers = {} }) => {
    const memory = createNodeStubFetch({ seed: 42, url: node.url });
    const viaWorker = await fetch(`${node.url}${path}`, { headers });
    const inMemory = await memory(`${node.url}${path}`, { headers });
    expect(viaWorker.status).toBe(inMemory.status);
    expect(headersOf(viaWorker)).toEqual(headersOf(inMemory));
    expect(await viaWorker.text()).toBe(await inMemory.text());
    expect(node.requests.map((r) => [r.method, r.url, r.operationId])).toEqual(memory.requests.map((r) => [r.method, r.url, r.operationId]));
  });

  it.each<{ name: string; path: string; headers?: Record<string, string> }>([
    { name: 'history with the key', path: '/history?trading_pair=btc_usdt&startDate=1731974400000&endDate=1732003200000&interval=3600', headers: { 'x-api-key': 'msw-key' } },
    { name: 'history with a wrong key', path: '/history?trading_pair=btc_usdt&startDate=0&endDate=1&interval=60', headers: { 'x-api-key': 'nope' } },
    { name: 'latest of every pair', path: '/latest' },
  ])('price: $name', async ({ path, headers = {} }) => {
    const memory = createPriceStubFetch({ seed: 42, apiKey: 'msw-key', url: prices.url, now: () => DEFAULT_PRICE_NOW });
    const viaWorker = await fetch(`${prices.url}${path}`, { headers });
    const inMemory = await memory(`${prices.url}${path}`, { headers });
    expect(viaWorker.status).toBe(inMemory.status);
    expect(headersOf(viaWorker)).toEqual(headersOf(inMemory));
    expect(await viaWorker.text()).toBe(await inMemory.text());
  });
});

describe('faults through the worker', () => {
  it('a redirect: the worker answers the 3xx, the browser follows it, and the stub answers the hop', async () => {
    const headers = { 'x-stub-fault': '307', 'x-stub-redirect-to': '{url}?moved=1', 'x-stub-fault-times': '1', 'x-stub-fault-key': 'k' };
    const r = await fetch(`${node.url}/rpc/v2/accounts/${A}`, { headers });
    expect([r.status, r.redirected, r.url]).toEqual([200, true, `${node.url}/rpc/v2/accounts/${A}?moved=1`]);
    expect(node.requests.map((q) => q.url)).toEqual([`/rpc/v2/accounts/${A}`, `/rpc/v2/accounts/${A}?moved=1`]);
  });

  it('reset: the fetch rejects with a TypeError; truncated: the body errors', async () => {
    expect(await rejection(fetch(`${node.url}/rpc/v2/accounts/${A}`, { headers: { 'x-stub-fault': 'reset' } }))).toBeInstanceOf(TypeError);
    const r = await fetch(`${node.url}/rpc/v2/accounts/${A}`, { headers: { 'x-stub-fault': 'truncated' } });
    expect(r.status).toBe(200);
    expect(await rejection(r.text())).toBeInstanceOf(TypeError);
  });
});

describe('the clients, with no fetch of their own', () => {
  it('node: failNext twice, a walk page, requests and reset', async () => {
    const client = createNodeClient({ baseUrl: node.url, retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 } });
    node.failNext('getAccountV2', 502, 2);
    expect((await client.v2.getAccount(A)).sequence_number).toBeGreaterThan(0);
    expect(node.requests.map((r) => r.operationId)).toEqual(['getAccountV2', 'getAccountV2', 'getAccountV2']);

    node.reset();
    expect(node.requests).toHaveLength(0);
    const page = await client.v2.listTransactions(STUB_ACCOUNTS.exactly100, { count: 3, start: 0 });
    expect(page.record.map((tx) => tx.header.sequence_number)).toEqual([0, 1, 2]);
    expect(node.requests[0]).toMatchObject({ method: 'GET', operationId: 'listTransactionsV2' });
  });

  it('node: a 404 is an HttpError, a reset a NetworkError', async () => {
    const client = createNodeClient({ baseUrl: node.url, retry: false });
    node.failNext('getAccountV2', 404);
    expect(await rejection(client.v2.getAccount(A))).toMatchObject({ name: 'HttpError', status: 404 });
    node.failNext('getAccountV2', 'reset');
    expect(await rejection(client.v2.getAccount(A))).toBeInstanceOf(NetworkError);
    await expect(client.v2.getAccount(STUB_ACCOUNTS.unknown)).rejects.toBeInstanceOf(HttpError);
  });

  it('price: history and latest with the key, which the stub saw as a header', async () => {
    const client = createPriceClient({ baseUrl: prices.url, apiKey: prices.apiKey, retry: false });
    const candles = await client.history({ pair: 'eth_usdt', start: prices.now() - 86_400_000, end: prices.now(), resolution: 3600 });
    expect(candles).toHaveLength(24);
    expect((await client.latest({ pair: 'btc_usdt' })).instruments).toHaveLength(1);
    // The worker answers before any CORS preflight: two GETs, no OPTIONS, though the key is a custom header.
    expect(prices.requests.map((r) => [r.method, r.operationId, r.headers['x-api-key']])).toEqual([
      ['GET', 'getHistory', 'msw-key'],
      ['GET', 'getLatest', 'msw-key'],
    ]);
  });
});
