/**
 * Type-level behaviour of the generated price types, and the README's example verbatim. The price client
 * re-exports these very types (one home): its `Candle` is `@x/price-types`' `Candle`, not a copy.
 * Checked by `tsc` (`pnpm typecheck`, the root tsconfig.json); nothing here runs.
 */
import { describe, expectTypeOf, test } from 'vitest';
import type * as client from '@x/price-client';
import type * as types from '@x/price-types';

// README.md, verbatim:
import type { Candle, LatestResponse, operations, paths } from '@x/price-types';

const closes = (candles: Candle[]): number[] => candles.map((c) => c.close); // numbers already
const pairs = (r: LatestResponse): string[] => r.instruments.map((i) => i.tradingPairs);

type HistoryQuery = operations['getHistory']['parameters']['query'];
// (end of the README's example)

describe('@x/price-types', () => {
  test('the README example', () => {
    expectTypeOf(closes).returns.toEqualTypeOf<number[]>();
    expectTypeOf(pairs).parameter(0).toEqualTypeOf<LatestResponse>();
    expectTypeOf<HistoryQuery['trading_pair']>().toEqualTypeOf<string>();
    expectTypeOf<HistoryQuery['interval']>().toEqualTypeOf<number>();
    expectTypeOf<keyof paths>().toEqualTypeOf<'/history' | '/latest'>();
  });

  test('candles are numbers, instruments strings', () => {
    expectTypeOf<Candle>().toEqualTypeOf<{ timestamp: number; open: number; high: number; low: number; close: number; volume: number }>();
    expectTypeOf<types.Instrument['currentPrice']>().toEqualTypeOf<string>();
    expectTypeOf<types.HistoryResponse['data']>().toEqualTypeOf<Candle[]>();
  });

  test('@x/price-client re-exports the same types under the same names', () => {
    expectTypeOf<client.Candle>().toEqualTypeOf<types.Candle>();
    expectTypeOf<client.HistoryResponse>().toEqualTypeOf<types.HistoryResponse>();
    expectTypeOf<client.Instrument>().toEqualTypeOf<types.Instrument>();
    expectTypeOf<client.LatestResponse>().toEqualTypeOf<types.LatestResponse>();
    expectTypeOf<client.TradingPair>().toEqualTypeOf<types.TradingPair>();
    expectTypeOf<client.paths>().toEqualTypeOf<types.paths>();
    expectTypeOf<client.PriceOperations>().toEqualTypeOf<types.operations>();
  });
});
