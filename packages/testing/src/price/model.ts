/**
 * Deterministic prices: the log price of a pair is a sum of lattice noise at scales from one minute to
 * about 45 days (amplitudes grow with the square root of the scale, as in a random walk), so the price
 * at any millisecond is a pure function of (seed, pair, time) and any window can be computed on its own.
 */
import type { components } from '@x/price-types';
import { hash4 } from '../random.ts';

export type Candle = components['schemas']['Candle'];
export type Instrument = components['schemas']['Instrument'];

export interface PairSpec {
  /** Price level the walk wanders around. */
  base: number;
  /** Decimals prices are rounded to. */
  decimals: number;
  /** Daily volatility of the log price. */
  dailyVol: number;
  /** Typical volume per minute. */
  volumePerMinute: number;
}

/** The supported trading pairs. */
export const PRICE_PAIRS: Readonly<Record<string, PairSpec>> = {
  btc_usdt: { base: 91_000, decimals: 2, dailyVol: 0.03, volumePerMinute: 12.5 },
  eth_usdt: { base: 3_100, decimals: 2, dailyVol: 0.04, volumePerMinute: 180 },
  supra_usdt: { base: 0.0085, decimals: 6, dailyVol: 0.06, volumePerMinute: 2_500_000 },
  eth_btc: { base: 0.034, decimals: 6, dailyVol: 0.025, volumePerMinute: 40 },
};

const PAIR_IDS: Record<string, number> = { btc_usdt: 1, eth_usdt: 2, supra_usdt: 3, eth_btc: 4 };
const LEVELS = 9; // 60 s · 4^k, k = 0..8 (one minute .. ~45 days)
const DAY_S = 86_400;

function lattice(seed: number, pair: number, level: number, i: number): number {
  return hash4(seed, pair, level, i) * 2 - 1;
}

/** Unrounded price of a pair at time `t` (ms). */
export function priceAt(seed: number, pair: string, t: number): number {
  const spec = PRICE_PAIRS[pair];
  if (spec === undefined) throw new Error(`unknown pair ${pair}`);
  const id = PAIR_IDS[pair] ?? 0;
  const sigma = spec.dailyVol / Math.sqrt(DAY_S);
  let log = 0;
  let scaleS = 60;
  for (let k = 0; k < LEVELS; k++, scaleS *= 4) {
    const x = t / (scaleS * 1000);
    const i = Math.floor(x);
    const f = x - i;
    const a = lattice(seed, id, k, i >>> 0);
    const b = lattice(seed, id, k, (i + 1) >>> 0);
    log += sigma * Math.sqrt(scaleS) * 0.9 * (a + (b - a) * f);
  }
  // A small tick-level jitter (15 s lattice, no interpolation).
  log += sigma * Math.sqrt(15) * 0.5 * lattice(seed, id, 99, Math.floor(t / 15_000) >>> 0);
  return spec.base * Math.exp(log);
}

const round = (x: number, d: number): number => Number(x.toFixed(d));

/** The candle of `[t, t + intervalMs)`: open at t, close at the end, high/low over samples inside. */
export function candleAt(seed: number, pair: string, t: number, intervalMs: number): Candle {
  const spec = PRICE_PAIRS[pair] as PairSpec;
  const d = spec.decimals;
  const open = round(priceAt(seed, pair, t), d);
  const close = round(priceAt(seed, pair, t + intervalMs), d);
  let high = Math.max(open, close);
  let low = Math.min(open, close);
  const samples = 6;
  for (let s = 1; s <= samples; s++) {
    const p = round(priceAt(seed, pair, t + Math.floor((intervalMs * s) / (samples + 1))), d);
    high = Math.max(high, p);
    low = Math.min(low, p);
  }
  const id = PAIR_IDS[pair] ?? 0;
  const u = hash4(seed, id, 0x701, Math.floor(t / 1000) >>> 0);
  const volume = round(spec.volumePerMinute * (intervalMs / 60_000) * (0.4 + 1.2 * u), 4);
  return { timestamp: t, open, high, low, close, volume };
}

/** `YYYY-MM-DD HH:MM:SS` in UTC. */
export function formatUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

function decimalString(x: number, decimals: number): string {
  const s = x.toFixed(decimals);
  return /^-0(\.0+)?$/.test(s) ? s.slice(1) : s;
}

/**
 * Latest price of a pair at `now`: the update time is `now` floored to the second; 24h high/low over the
 * hourly samples of the last 24 hours and the current price; 24h change in percent, two decimals.
 */
export function instrumentAt(seed: number, pair: string, now: number): Instrument {
  const spec = PRICE_PAIRS[pair] as PairSpec;
  const time = Math.floor(now / 1000) * 1000;
  const current = priceAt(seed, pair, time);
  let high = current;
  let low = current;
  for (let h = 1; h <= 24; h++) {
    const p = priceAt(seed, pair, time - h * 3_600_000);
    high = Math.max(high, p);
    low = Math.min(low, p);
  }
  const dayAgo = priceAt(seed, pair, time - DAY_S * 1000);
  return {
    time: String(time),
    timestamp: formatUtc(time),
    currentPrice: decimalString(current, spec.decimals),
    '24h_high': decimalString(high, spec.decimals),
    '24h_low': decimalString(low, spec.decimals),
    '24h_change': decimalString(((current - dayAgo) / dayAgo) * 100, 2),
    tradingPairs: pair,
  };
}
