/**
 * The option objects of `@x/price-client/query` in query-core: fetchQuery, an observer and the cache are
 * typed by them without annotation (`@x/node-client`'s type tests show the React and Vue hooks doing the same).
 */
import { describe, expectTypeOf, it } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/query-core';
import { createPriceClient, type Candle, type AnyClientError, type LatestResponse } from '@x/price-client';
import { createPriceQueries, type PriceQueryError } from '@x/price-client/query';

const q = createPriceQueries(createPriceClient({ apiKey: 'key' }));
const range = { pair: 'btc_usdt', start: new Date(0), end: 3_600_000, resolution: 3600 };

describe('query-core infers data and error', () => {
  it('fetchQuery and getQueryData', () => {
    const qc = new QueryClient();
    expectTypeOf(qc.fetchQuery(q.history(range))).resolves.toEqualTypeOf<Candle[]>();
    expectTypeOf(qc.fetchQuery(q.latest())).resolves.toEqualTypeOf<LatestResponse>();
    expectTypeOf(qc.getQueryData(q.latest({ pair: 'btc_usdt' }).queryKey)).toEqualTypeOf<LatestResponse | undefined>();
  });

  it('an observer (what every framework hook wraps)', () => {
    const result = new QueryObserver(new QueryClient(), q.history(range)).getCurrentResult();
    expectTypeOf(result.data).toEqualTypeOf<Candle[] | undefined>();
    expectTypeOf(result.error).toEqualTypeOf<AnyClientError | null>();
    expectTypeOf<PriceQueryError>().toEqualTypeOf<AnyClientError>();
    // The code narrows the class (issue 37.3).
    const e = result.error;
    if (e?.code === 'HTTP_ERROR') expectTypeOf(e.status).toEqualTypeOf<number>();
  });
});

describe('arguments', () => {
  it("are the client calls' own, without signal or key", () => {
    expectTypeOf(q.history).toBeCallableWith({ pair: 'eth_usdt', start: 0, end: new Date(), resolution: 60 });
    // @ts-expect-error resolution is required
    void q.history({ pair: 'btc_usdt', start: 0, end: 1 });
    // @ts-expect-error the query's signal is TanStack's
    void q.latest({ signal: new AbortController().signal });
  });
});
