/**
 * The TanStack Query pattern for a live last candle (`liveCandleQueryOptions`) with `@tanstack/query-core`,
 * over a real loopback WebSocket to the fake price service: the README's example, run.
 */
import { QueryClient, QueryObserver } from '@tanstack/query-core';
import { afterEach, expect, it, vi } from 'vitest';
import { createPriceClient, type CandleUpdate } from '@x/price-client';
import { liveCandleQueryOptions } from '@x/price-client/query';
import { usePriceStub } from '@x-tools/test-helpers';
import { KEY, NOW } from './helpers.ts';

let clock = NOW;
const ctx = usePriceStub({ apiKey: KEY, now: () => clock, feedTickMs: 0 });
const until = (condition: () => boolean): Promise<void> => vi.waitFor(() => expect(condition()).toBe(true), { interval: 1, timeout: 5000 });
afterEach(() => until(() => ctx.stub.feed.connections === 0));

it('keeps the last candle in the cache as the feed ticks, and closes the socket when the last observer leaves', async () => {
  const prices = createPriceClient({ baseUrl: ctx.stub.url, webSocketUrl: ctx.stub.webSocketUrl, apiKey: KEY });
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    // The README's example:
    const queryClient = new QueryClient();
    const live = new QueryObserver(queryClient, liveCandleQueryOptions(prices, { pair: 'btc_usdt', resolution: 60 }));
    const unsubscribe = live.subscribe(({ data }) => {
      if (data) console.log(data.candle.close, data.closed ? 'final' : 'forming');
    });

    await until(() => ctx.stub.feed.subscriptions.length === 1);
    expect(live.getCurrentResult().status).toBe('pending');
    clock = NOW + 10_000;
    ctx.stub.feed.tick();
    await until(() => live.getCurrentResult().data !== undefined);
    const first: CandleUpdate | undefined = live.getCurrentResult().data;
    expect(first).toMatchObject({ candle: { timestamp: NOW }, closed: false });
    expect(log).toHaveBeenLastCalledWith(first!.candle.close, 'forming');
    clock = NOW + 65_000;
    ctx.stub.feed.tick();
    await until(() => live.getCurrentResult().data?.candle.timestamp === NOW + 60_000);
    const result = live.getCurrentResult();
    expect([result.status, result.fetchStatus, result.data?.closed]).toEqual(['success', 'fetching', false]);
    expect(ctx.stub.feed.connectionsOpened).toBe(1);
    unsubscribe();
    await until(() => ctx.stub.feed.connections === 0);
    queryClient.clear();
  } finally {
    log.mockRestore();
  }
});

it('keys the query by base URL, pair and resolution, never by the key', () => {
  const prices = createPriceClient({ baseUrl: ctx.stub.url, apiKey: KEY });
  const { queryKey } = liveCandleQueryOptions(prices, { pair: 'eth_usdt', resolution: 300 });
  expect(queryKey).toEqual(['@x/price-client', [ctx.stub.url], 'watchCandles', { pair: 'eth_usdt', resolution: 300 }]);
  expect(JSON.stringify(queryKey)).not.toContain(KEY);
});
