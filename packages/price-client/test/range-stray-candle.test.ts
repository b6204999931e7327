/**
 * historyRange keeps each window's answer to that window: a service that adds a candle past the window
 * asked (its newest, a common kline habit) loses none of the later windows' candles, which a candle
 * counted as the walk's last would have dropped as repeats.
 */
import { beforeEach, expect, it } from 'vitest';
import type { Candle } from '@x/price-client';
import { usePriceStub } from '@x-tools/test-helpers';
import { client, DAY, KEY, NOW } from './helpers.ts';

const ctx = usePriceStub({ apiKey: KEY });
beforeEach(() => ctx.stub.reset());

it('a window answered with a candle past it (the newest of the range) loses no candle of the later windows', async () => {
  // Two days of hourly candles in windows of 12.
  const range = { pair: 'btc_usdt', start: NOW - 2 * DAY, end: NOW - 1, resolution: 3600, windowCandles: 12 };
  const all = await client(ctx.stub).history(range);
  expect(all).toHaveLength(48);
  const newest = all.at(-1)!;
  const prices = client(ctx.stub, {
    fetch: async (request) => {
      const response = await fetch(request);
      const body = (await response.json()) as { data: Candle[] };
      return Response.json({ ...body, data: [...body.data.filter((c) => c.timestamp !== newest.timestamp), newest] }, { status: response.status });
    },
  });
  const candles: Candle[] = [];
  for await (const candle of prices.historyRange(range)) candles.push(candle);
  expect(candles).toEqual(all);
});
