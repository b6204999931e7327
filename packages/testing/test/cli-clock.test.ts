/**
 * `x-stub` says which clock its price stub uses: the wall clock by default (so "the last 24 hours" has
 * candles), the fixed DEFAULT_PRICE_NOW with --fixed-clock (so tests written for the library's default
 * clock match it).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_NOW } from '@x/testing';
import { withCli } from './helpers.ts';

const HOUR = 3_600_000;
const history = async (priceUrl: string, end: number): Promise<unknown[]> => {
  const url = `${priceUrl}/history?trading_pair=btc_usdt&startDate=${end - 24 * HOUR}&endDate=${end - 1}&interval=3600`;
  const body = (await (await fetch(url, { headers: { 'x-api-key': 'test-key' } })).json()) as { data: unknown[] };
  return body.data;
};

describe('x-stub clock', () => {
  it('uses the wall clock by default and says so; the last 24 hours have 24 hourly candles', async () => {
    await withCli([], async ({ out, priceUrl }) => {
      expect(out).toMatch(/price clock: real \(the wall clock\)/);
      expect(out).toContain(`--fixed-clock fixes it at ${new Date(DEFAULT_PRICE_NOW).toISOString()}`);
      expect(await history(priceUrl, Math.floor(Date.now() / HOUR) * HOUR)).toHaveLength(24);
      expect(await history(priceUrl, DEFAULT_PRICE_NOW)).toEqual([]); // long out of retention
    });
  });

  it('with --fixed-clock, stands at DEFAULT_PRICE_NOW and says so', async () => {
    await withCli(['--fixed-clock'], async ({ out, priceUrl }) => {
      expect(out).toContain(`price clock: fixed at ${new Date(DEFAULT_PRICE_NOW).toISOString()} (--fixed-clock)`);
      expect(await history(priceUrl, DEFAULT_PRICE_NOW)).toHaveLength(24);
    });
  });
});
