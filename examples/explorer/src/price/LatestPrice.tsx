import { useQuery } from '@tanstack/react-query';
import { readInstrument } from '@x/price-client';
import type { Services } from '../services.ts';
import { ErrorState, Loading } from '../ui/ErrorState.tsx';
import { dateTime } from '../ui/format.ts';

/** The pair's latest price and its 24-hour change, from `/latest`. */
export function LatestPrice({ services, pair }: { services: Services; pair: string }) {
  const latest = useQuery({
    ...services.prices.latest({ pair }),
    // readInstrument turns the strings into numbers and dates, and throws on a malformed one: the query's error.
    select: (data) => (data.instruments[0] ? readInstrument(data.instruments[0]) : undefined),
  });
  if (latest.isPending) return <Loading what="latest price" />;
  if (latest.error) return <ErrorState error={latest.error} notFound="No such pair" />;
  if (!latest.data) return <p className="state empty">No price for this pair.</p>;
  const { currentPrice, change24h, high24h, low24h, time } = latest.data;
  return (
    <p className="latest" data-testid="latest-price">
      <strong>{currentPrice.toLocaleString('en-US', { maximumFractionDigits: 6 })}</strong>{' '}
      <span className={change24h < 0 ? 'down' : 'up'}>
        {change24h > 0 ? '+' : ''}
        {change24h.toFixed(2)}% in 24 h
      </span>{' '}
      <span className="muted">
        (24 h range {low24h.toLocaleString('en-US')} to {high24h.toLocaleString('en-US')}, at {dateTime(time)})
      </span>
    </p>
  );
}
