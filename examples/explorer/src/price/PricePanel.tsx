import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { liveCandleQueryOptions } from '@x/price-client/query';
import { useId, useMemo, useState } from 'react';
import type { Services } from '../services.ts';
import { ErrorState, Loading } from '../ui/ErrorState.tsx';
import { CandleChart } from './CandleChart.tsx';
import { LatestPrice } from './LatestPrice.tsx';

const RESOLUTIONS = [
  { seconds: 60, label: '1 minute' },
  { seconds: 900, label: '15 minutes' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 14_400, label: '4 hours' },
];
const CANDLES = 120;

/**
 * A pair and a resolution; the latest price and a chart of the last {@link CANDLES} candles, whose last
 * candle moves with the price feed (`liveCandleQueryOptions`: the latest `watchCandles` update) where the
 * page can reach the feed.
 */
export function PricePanel({ services }: { services: Services }) {
  const [pair, setPair] = useState(services.pairs[0] ?? 'btc_usdt');
  const [resolution, setResolution] = useState(3600);
  const id = useId();
  // One range per choice (not `Date.now()` per render, which would be a new query key each time),
  // ending at the last whole interval.
  const range = useMemo(() => {
    const step = resolution * 1000;
    const end = Math.floor(services.now() / step) * step;
    return { start: end - CANDLES * step, end };
  }, [resolution, services]);
  const history = useQuery({ ...services.prices.history({ pair, resolution, ...range }), placeholderData: keepPreviousData });
  const live = useQuery({ ...liveCandleQueryOptions(services.priceClient, { pair, resolution }), enabled: services.liveCandles });

  return (
    <section aria-labelledby="price-heading" className="panel">
      <h2 id="price-heading">Prices</h2>
      <form className="price-form" onSubmit={(e) => e.preventDefault()}>
        <label htmlFor={`${id}-pair`}>Pair</label>
        <select id={`${id}-pair`} value={pair} onChange={(e) => setPair(e.target.value)}>
          {services.pairs.map((p) => (
            <option key={p} value={p}>
              {p.replace('_', '/').toUpperCase()}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-resolution`}>Resolution</label>
        <select id={`${id}-resolution`} value={resolution} onChange={(e) => setResolution(Number(e.target.value))}>
          {RESOLUTIONS.map((r) => (
            <option key={r.seconds} value={r.seconds}>
              {r.label}
            </option>
          ))}
        </select>
      </form>
      <LatestPrice services={services} pair={pair} />
      {history.isPending ? (
        <Loading what="candles" />
      ) : history.error ? (
        <ErrorState error={history.error} notFound="No such pair" />
      ) : history.data.length === 0 ? (
        <p className="state empty">No candles in this range.</p>
      ) : (
        <CandleChart
          candles={history.data}
          // The previous choice's candles stay while the new ones load: no live candle of the new choice on them.
          live={history.isPlaceholderData ? undefined : live.data}
          label={`${pair} candles of ${RESOLUTIONS.find((r) => r.seconds === resolution)?.label}`}
        />
      )}
      {/* The feed reconnects by itself; what ends it (a refused key, a bad ?price-feed=) is said here. */}
      {live.error ? <ErrorState error={live.error} /> : null}
    </section>
  );
}
