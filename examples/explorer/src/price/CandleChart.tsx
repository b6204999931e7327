import type { Candle } from '@x/price-client';
import { CandlestickSeries, createChart, HistogramSeries, type IChartApi, type ISeriesApi, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'react';

const UP = '#26a69a';
const DOWN = '#ef5350';

/** Candles and their volume, drawn by TradingView's lightweight-charts on a canvas. */
export function CandleChart({ candles, label }: { candles: Candle[]; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<{ api: IChartApi; candles: ISeriesApi<'Candlestick'>; volume: ISeriesApi<'Histogram'> }>(null);

  useEffect(() => {
    const api = createChart(container.current!, {
      autoSize: true,
      layout: { background: { color: '#ffffff' }, textColor: '#333' },
      timeScale: { timeVisible: true },
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
    const time = (t: number) => (t / 1000) as UTCTimestamp;
    c.candles.setData(candles.map((k) => ({ time: time(k.timestamp), open: k.open, high: k.high, low: k.low, close: k.close })));
    c.volume.setData(candles.map((k) => ({ time: time(k.timestamp), value: k.volume, color: k.close >= k.open ? `${UP}80` : `${DOWN}80` })));
    c.api.timeScale().fitContent();
  }, [candles]);

  const last = candles.at(-1);
  return (
    <figure className="chart">
      <div ref={container} className="chart-canvas" data-testid="chart" role="img" aria-label={`Candlestick chart: ${label}`} />
      <figcaption className="muted">
        {candles.length} candles, {label}
        {last ? `; last close ${last.close}` : ''}
      </figcaption>
    </figure>
  );
}
