/**
 * `@x/price-client/query` run by a real `QueryClient` of `@tanstack/query-core` against the price stub:
 * each query gives what the client call gives, keys are stable and distinct and never hold the API key,
 * and cancelling a query aborts its request.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CancelledError, dehydrate, hashKey, QueryClient } from '@tanstack/query-core';
import { createPriceClient, HttpError, InvalidArgumentError } from '@x/price-client';
import { createPriceQueries, historyQueryOptions, latestQueryOptions, PRICE_QUERY_SCOPE } from '@x/price-client/query';
import { startSilentServer } from '@x-tools/scripted-server';
import { rejectionOf, usePriceStub } from '@x-tools/test-helpers';
import { client, DAY, HOUR, KEY, NOW } from './helpers.ts';

const ctx = usePriceStub({ apiKey: KEY });
beforeEach(() => ctx.stub.reset());
const clients: QueryClient[] = [];
/** A QueryClient that schedules no garbage collection and retries nothing, cleared after each test. */
function queryClient(): QueryClient {
  const qc = new QueryClient({ defaultOptions: { queries: { gcTime: Infinity, retry: false } } });
  clients.push(qc);
  return qc;
}
afterEach(() => {
  for (const qc of clients.splice(0)) qc.clear();
});

const range = { pair: 'btc_usdt', start: NOW - DAY, end: NOW, resolution: 3600 };

describe('fetchQuery equals the client call', () => {
  const cases: [string, (q: ReturnType<typeof createPriceQueries>) => { queryKey: readonly unknown[] }, (p: ReturnType<typeof client>) => Promise<unknown>][] = [
    ['history', (q) => q.history(range), (p) => p.history(range)],
    ['history, Dates', (q) => q.history({ ...range, start: new Date(range.start), end: new Date(range.end) }), (p) => p.history(range)],
    ['history, another pair and resolution', (q) => q.history({ ...range, pair: 'eth_usdt', resolution: 60, start: NOW - HOUR }), (p) => p.history({ ...range, pair: 'eth_usdt', resolution: 60, start: NOW - HOUR })],
    ['latest of a pair', (q) => q.latest({ pair: 'btc_usdt' }), (p) => p.latest({ pair: 'btc_usdt' })],
    ['latest of every pair', (q) => q.latest(), (p) => p.latest()],
  ];
  for (const [name, options, direct] of cases) {
    it(name, async () => {
      const prices = client(ctx.stub);
      const expected = await direct(prices);
      const got = await queryClient().fetchQuery(options(createPriceQueries(prices)) as Parameters<QueryClient['fetchQuery']>[0]);
      expect(got).toEqual(expected);
      expect(got).not.toEqual([]);
    });
  }

  it("errors are the client's: a bad argument before any request, an HTTP error as HttpError", async () => {
    const queries = createPriceQueries(client(ctx.stub));
    const bad = await rejectionOf(queryClient().fetchQuery(queries.history({ ...range, pair: 'BTC' })));
    expect(bad).toBeInstanceOf(InvalidArgumentError);
    expect(bad).toMatchObject({ parameter: 'pair' });
    expect(ctx.stub.requests).toEqual([]);
    ctx.stub.failNext('getLatest', 404);
    expect(await rejectionOf(queryClient().fetchQuery(queries.latest({ pair: 'btc_usdt' })))).toBeInstanceOf(HttpError);
  });
});

describe('each query option imported alone', () => {
  it('historyQueryOptions and latestQueryOptions: the keys of createPriceQueries, the answers of the client', async () => {
    const prices = client(ctx.stub);
    const queries = createPriceQueries(prices);
    expect(historyQueryOptions(prices, { ...range, start: new Date(range.start) }).queryKey).toEqual(queries.history(range).queryKey);
    expect(latestQueryOptions(prices).queryKey).toEqual(queries.latest().queryKey);
    expect(latestQueryOptions(prices, { pair: 'btc_usdt' }).retry).toBe(false);
    expect(await queryClient().fetchQuery(historyQueryOptions(prices, range))).toEqual(await prices.history(range));
    expect(await queryClient().fetchQuery(latestQueryOptions(prices, { pair: 'btc_usdt' }))).toEqual(await prices.latest({ pair: 'btc_usdt' }));
    const bad = await rejectionOf(queryClient().fetchQuery(historyQueryOptions(prices, { ...range, resolution: -1 })));
    expect(bad).toBeInstanceOf(InvalidArgumentError);
    expect(bad).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'resolution' });
  });
});

describe('keys', () => {
  const queries = createPriceQueries(createPriceClient({ baseUrl: 'http://127.0.0.1:27001', apiKey: KEY }));
  const hash = (o: { queryKey: readonly unknown[] }): string => hashKey(o.queryKey);

  it('have the documented form, times in Unix milliseconds', () => {
    expect(queries.history({ ...range, start: new Date(range.start) }).queryKey).toEqual([
      PRICE_QUERY_SCOPE,
      ['http://127.0.0.1:27001'],
      'getHistory',
      { pair: 'btc_usdt', start: range.start, end: range.end, resolution: 3600 },
    ]);
    expect(queries.latest().queryKey).toEqual(['@x/price-client', ['http://127.0.0.1:27001'], 'getLatest', {}]);
  });

  it('are stable, one for a Date and its milliseconds, distinct for every parameter and operation', () => {
    expect(hash(queries.history(range))).toBe(hash(queries.history({ ...range })));
    expect(hash(queries.history({ ...range, end: new Date(range.end) }))).toBe(hash(queries.history(range)));
    const all = [
      queries.history(range),
      queries.history({ ...range, pair: 'eth_usdt' }),
      queries.history({ ...range, start: range.start + 1 }),
      queries.history({ ...range, end: range.end - 1 }),
      queries.history({ ...range, resolution: 60 }),
      queries.latest(),
      queries.latest({ pair: 'btc_usdt' }),
    ];
    expect(new Set(all.map(hash)).size).toBe(all.length);
  });

  it('differ between services at different base URLs', () => {
    const other = createPriceQueries(createPriceClient({ baseUrl: 'http://127.0.0.1:27002', apiKey: KEY }));
    expect(hash(other.history(range))).not.toBe(hash(queries.history(range)));
    expect(hash(other.latest())).not.toBe(hash(queries.latest()));
  });

  it('never hold the API key, whatever else a parameter object carries', async () => {
    const withKey = { ...range, apiKey: KEY, headers: { 'x-api-key': KEY } } as typeof range;
    for (const options of [queries.history(range), queries.history(withKey), queries.latest({ pair: 'btc_usdt', apiKey: KEY } as { pair: string })]) {
      expect(JSON.stringify(options.queryKey)).not.toContain(KEY);
      expect(hash(options)).not.toContain(KEY);
    }
    expect(hash(queries.history(withKey))).toBe(hash(queries.history(range)));
    // Nor the cache as it is persisted or sent to a browser.
    const qc = queryClient();
    const prices = client(ctx.stub);
    await qc.fetchQuery(createPriceQueries(prices).history(withKey));
    await qc.fetchQuery(createPriceQueries(prices).latest());
    expect(JSON.stringify(dehydrate(qc))).not.toContain(KEY);
    expect(qc.getQueryCache().getAll().map((q) => q.queryHash).join()).not.toContain(KEY);
  });
});

describe('cancelQueries', () => {
  it('aborts the request in flight: the fetch settles at once, the connection is closed', async () => {
    const server = await startSilentServer();
    try {
      const queries = createPriceQueries(createPriceClient({ baseUrl: server.url, apiKey: KEY, retry: false }));
      const qc = queryClient();
      const options = queries.history(range);
      const pending = qc.fetchQuery(options);
      await until(() => server.requests.length === 1);
      await qc.cancelQueries({ queryKey: [PRICE_QUERY_SCOPE] });
      expect(await rejectionOf(pending)).toBeInstanceOf(CancelledError);
      await until(() => server.closed[0] === true);
    } finally {
      await server.close();
    }
  });

  it('over a slow stub answer: settles well before the answer would come', async () => {
    const qc = queryClient();
    const options = createPriceQueries(client(ctx.stub)).latest({ pair: 'btc_usdt' });
    ctx.stub.failNext('getLatest', 'slow', 1, { delayMs: 10_000 });
    const pending = qc.fetchQuery(options);
    await until(() => ctx.stub.requests.length === 1);
    const started = performance.now();
    await qc.cancelQueries({ queryKey: options.queryKey });
    expect(await rejectionOf(pending)).toBeInstanceOf(CancelledError);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

/** Waits (up to 5 s) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}
