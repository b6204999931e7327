/**
 * `@x/price-client/query` in the React and Vue hooks. Here rather than in the price client's tests:
 * the framework packages are devDependencies of this package only (the price client's own type tests
 * use query-core).
 */
import { describe, expectTypeOf, it } from 'vitest';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useQuery as useVueQuery } from '@tanstack/vue-query';
import { createPriceClient, type Candle, type AnyClientError, type LatestResponse } from '@x/price-client';
import { createPriceQueries } from '@x/price-client/query';

const queries = createPriceQueries(createPriceClient({ apiKey: 'key' }));

describe('price queries in framework hooks', () => {
  it('infer data and error', () => {
    const latest = useQuery(queries.latest({ pair: 'btc_usdt' }));
    expectTypeOf(latest.data).toEqualTypeOf<LatestResponse | undefined>();
    expectTypeOf(latest.error).toEqualTypeOf<AnyClientError | null>();
    expectTypeOf(useSuspenseQuery(queries.history({ pair: 'btc_usdt', start: 0, end: 1, resolution: 60 })).data).toEqualTypeOf<Candle[]>();
    const vue = useVueQuery(queries.history({ pair: 'btc_usdt', start: new Date(0), end: 1, resolution: 60 }));
    expectTypeOf(vue.data.value).toEqualTypeOf<Candle[] | undefined>();
    expectTypeOf(vue.error.value).toEqualTypeOf<AnyClientError | null>();
  });
});
