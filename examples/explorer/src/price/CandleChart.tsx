import type { Candle, CandleUpdate } from '@x/price-client';
import { CandlestickSeries, createChart, HistogramSeries, type IChartApi, type ISeriesApi, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'react';
import { dateTime } from '../ui/format.ts';

const UP = '#26a69a';
const DOWN = '#ef5350';

const time = (t: number) => (t / 1000) as UTCTimestamp;
const bar = (k: Candle) => ({ time: time(k.timestamp), open: k.open, high: k.high, low: k.low, close: k.close });
const volumeBar = (k: Candle) => ({ time: time(k.timestamp), value: k.volume, color: k.close >= k.open ? `${UP}80` : `${DOWN}80` });

/**
 * Candles and their volume, drawn by TradingView's lightweight-charts on a canvas; `live`, the feed's latest
 * update, redraws the last candle in place (its slot's) or adds the next one.
 */
export function CandleChart({ candles, live, label }: { candles: Candle[]; live?: CandleUpdate | undefined; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<{ api: IChartApi; candles: ISeriesApi<'Candlestick'>; volume: ISeriesApi<'Histogram'> }>(null);
  // The last candle drawn: history's, then the feed's.
  const drawn = useRef<Candle | undefined>(undefined);

  useEffect(() => {
    const api = createChart(container.current!, {
      autoSize: true,
      layout: { background: { color: '#ffffff' }, textColor: '#333' },
      // A bar's width of room on the right: the last candle, the one that moves, is drawn whole.
      timeScale: { timeVisible: true, rightOffset: 1 },
    });
    const series = api.addSeries(CandlestickSeries, { upColor: UP, downColor: DOWN, wickUpColor: UP, wickDownColor: DOWN, borderVisible: false });
    const volume = api.addSeries(HistogramSeries, { priceFormat: { type: 'volume' }, priceScaleId: '' });
    // Volume in the lowest fifth of the pane, candles above it.
    volume.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    series.priceScale().applyOptions({ scaleMargins: { top: 0.05, bottom: 0.25 } });
    chart.current = { api, candles: series, volume };
    return () => {
      chart.current = null;
      api.remove();
    };
  }, []);

  useEffect(() => {
    const c = chart.current!;
    c.candles.setData(candles.map(bar));
    c.volume.setData(candles.map(volumeBar));
    c.api.timeScale().fitContent();
    drawn.current = candles.at(-1);
  }, [candles]);

  useEffect(() => {
    const c = chart.current!;
    // lightweight-charts updates the last bar or appends a later one; an older slot (an update of a pair
    // or resolution the chart no longer shows) is not drawn.
    if (live === undefined || (drawn.current !== undefined && live.candle.timestamp < drawn.current.timestamp)) return;
    c.candles.update(bar(live.candle));
    c.volume.update(volumeBar(live.candle));
    drawn.current = live.candle;
  }, [live, candles]);

  const last = live !== undefined && live.candle.timestamp >= (candles.at(-1)?.timestamp ?? 0) ? live.candle : candles.at(-1);
  return (
    <figure className="chart">
      <div ref={container} className="chart-canvas" data-testid="chart" role="img" aria-label={`Candlestick chart: ${label}`} />
      <figcaption className="muted">
        {candles.length} candles, {label}
        {last ? (
          <>
            ; last candle <span data-testid="last-candle-time">{dateTime(new Date(last.timestamp))}</span>, close{' '}
            <span data-testid="last-candle-close">{last.close}</span>
            {last === live?.candle ? (live.closed ? ' (closed, live)' : ' (forming, live)') : ''}
          </>
        ) : null}
      </figcaption>
    </figure>
  );
}
