/**
 * The README's TanStack Query example, run against the price stub: the snippet below is shown in the
 * README verbatim (a test holds them equal). The stub requires this suite's key instead of `test-key`.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/query-core';
import { createPriceQueries } from '@x/price-client/query';
import { usePriceStub } from '@x-tools/test-helpers';
import { client, KEY, NOW } from './helpers.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
// The wall clock, the stubs' default (usePriceStub fixes the clock unless told): the README's example
// asks for the last six hours. Read at each request (not `Date.now` taken now), so that it is the
// frozen one below.
const ctx = usePriceStub({ apiKey: KEY, now: () => Date.now() });
/**
 * The wall clock stands still during the test (only `Date` is mocked; timers stay real): the stub's
 * price moves every second, and the test compares the price the example logged with one asked later.
 * Mid-hour, as a wall clock usually is, so the example's rounding down to the hour is exercised.
 */
const FROZEN_AT = NOW + 25 * 60_000 + 1_234;
beforeEach(() => {
  vi.setSystemTime(FROZEN_AT);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('README: TanStack Query', () => {
  it('query-core runs the options', async () => {
    expect(readme).toContain(`const queries = createPriceQueries(prices);
const queryClient = new QueryClient();
const HOUR = 3_600_000;
const end = Math.floor(Date.now() / HOUR) * HOUR; // the default x-stub keeps the wall clock, as the service does
const candles = await queryClient.fetchQuery(queries.history({ pair: 'btc_usdt', start: end - 6 * HOUR, end: end - 1, resolution: 3600 }));
const { instruments } = await queryClient.fetchQuery(queries.latest({ pair: 'btc_usdt' }));
console.log(candles.length, instruments[0]?.currentPrice); // 6 candles, then the latest price as text`);
    const prices = client(ctx.stub);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const queries = createPriceQueries(prices);
      const queryClient = new QueryClient();
      const HOUR = 3_600_000;
      const end = Math.floor(Date.now() / HOUR) * HOUR; // the default x-stub keeps the wall clock, as the service does
      const candles = await queryClient.fetchQuery(queries.history({ pair: 'btc_usdt', start: end - 6 * HOUR, end: end - 1, resolution: 3600 }));
      const { instruments } = await queryClient.fetchQuery(queries.latest({ pair: 'btc_usdt' }));
      console.log(candles.length, instruments[0]?.currentPrice); // 6 candles, then the latest price as text
      const latest = await prices.latest({ pair: 'btc_usdt' });
      // The clock stood still: the logged price and `latest` are the stub's answers at one instant.
      expect(Date.now()).toBe(FROZEN_AT);
      expect(log).toHaveBeenCalledWith(6, latest.instruments[0]!.currentPrice);
      expect(typeof latest.instruments[0]!.currentPrice).toBe('string');
      queryClient.clear();
    } finally {
      log.mockRestore();
    }
  });
});
