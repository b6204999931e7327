import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_CANDLES,
  DEFAULT_PRICE_API_KEY,
  DEFAULT_PRICE_NOW,
  LATEST_PAGE_SIZE,
  PRICE_PAIRS,
  PRICE_RETENTION_MS,
  startPriceStub,
} from '../src/index.ts';
import { usePriceStub } from '@x-tools/test-helpers';
import { get, SEED } from './helpers.ts';

const ctx = usePriceStub({ seed: SEED });
const KEY = { 'x-api-key': DEFAULT_PRICE_API_KEY };
const HOUR = 3_600_000;
const DAY = 86_400_000;
const NOW = DEFAULT_PRICE_NOW;

interface Candle {
  timestamp: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}
interface History {
  status: string;
  data: Candle[];
}
interface Instrument {
  time: string;
  timestamp: string;
  currentPrice: string;
  '24h_high': string;
  '24h_low': string;
  '24h_change': string;
  tradingPairs: string;
}
interface Latest {
  currentPage: number;
  totalPages: number;
  totalRecords: number;
  pageSize: number;
  instruments: Instrument[];
}

const history = (q: Record<string, string | number>, headers: Record<string, string> = KEY) =>
  get<History & { error?: string }>(
    `${ctx.stub.url}/history?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString()}`,
    headers,
  );
const ok = { trading_pair: 'btc_usdt', startDate: NOW - 6 * HOUR, endDate: NOW, interval: 3600 };

describe('/history authentication', () => {
  it.each([
    ['no key', {}, 401, 'missing_api_key'],
    ['an empty key', { 'x-api-key': '' }, 401, 'missing_api_key'],
    ['a wrong key', { 'x-api-key': 'nope' }, 403, 'invalid_api_key'],
    ['the key in the query instead of the header', {}, 401, 'missing_api_key'],
  ])('%s is a %i', async (label, headers, status, code) => {
    const q = label.includes('query') ? { ...ok, 'x-api-key': DEFAULT_PRICE_API_KEY } : ok;
    const r = await history(q, headers);
    expect(r.status).toBe(status);
    expect(r.body).toMatchObject({ status: 'error', error: code });
  });

  it('a configured key replaces the default', async () => {
    const stub = await startPriceStub({ port: 0, apiKey: 'k-42', now: () => NOW });
    try {
      const url = `${stub.url}/history?trading_pair=btc_usdt&startDate=${NOW - HOUR * 3}&endDate=${NOW}&interval=3600`;
      expect((await get(url, { 'x-api-key': 'k-42' })).status).toBe(200);
      expect((await get(url, KEY)).status).toBe(403);
    } finally {
      await stub.close();
    }
  });
});

describe('/history parameters', () => {
  it.each([
    ['missing trading_pair', { startDate: 0, endDate: 1, interval: 60 }, 400, 'missing_parameter'],
    ['missing startDate', { trading_pair: 'btc_usdt', endDate: 1, interval: 60 }, 400, 'missing_parameter'],
    ['missing endDate', { trading_pair: 'btc_usdt', startDate: 0, interval: 60 }, 400, 'missing_parameter'],
    ['missing interval', { trading_pair: 'btc_usdt', startDate: 0, endDate: 1 }, 400, 'missing_parameter'],
    ['Resolution instead of interval', { trading_pair: 'btc_usdt', startDate: 0, endDate: 1, Resolution: 60 }, 400, 'missing_parameter'],
    ['zero interval', { ...ok, interval: 0 }, 400, 'invalid_parameter'],
    ['negative interval', { ...ok, interval: -60 }, 400, 'invalid_parameter'],
    ['fractional interval', { ...ok, interval: 1.5 }, 400, 'invalid_parameter'],
    ['startDate as ISO text', { ...ok, startDate: '2024-11-19T00:00:00Z' }, 400, 'invalid_parameter'],
    ['negative endDate', { ...ok, endDate: -1 }, 400, 'invalid_parameter'],
    ['start after end', { ...ok, startDate: NOW, endDate: NOW - 1 }, 400, 'invalid_range'],
    ['upper-case pair', { ...ok, trading_pair: 'BTC_USDT' }, 400, 'invalid_parameter'],
    ['pair without underscore', { ...ok, trading_pair: 'btcusdt' }, 400, 'invalid_parameter'],
    ['unknown pair', { ...ok, trading_pair: 'doge_usdt' }, 404, 'pair_not_found'],
    ['too many candles', { ...ok, startDate: NOW - 20 * DAY, interval: 60 }, 400, 'range_too_large'],
  ])('%s is a %i with a JSON error body', async (_label, q, status, code) => {
    const r = await history(q);
    expect(r.status).toBe(status);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.body).toMatchObject({ status: 'error', error: code, message: expect.any(String) });
  });

  it('a repeated parameter is a 400', async () => {
    const r = await get(`${ctx.stub.url}/history?trading_pair=btc_usdt&trading_pair=eth_usdt&startDate=0&endDate=1&interval=60`, KEY);
    expect(r.status).toBe(400);
  });

  it(`at most ${DEFAULT_MAX_CANDLES} candles per answer; the limit is configurable`, async () => {
    const exactly = await history({ ...ok, startDate: NOW - DEFAULT_MAX_CANDLES * 60_000, interval: 60 });
    expect(exactly.status).toBe(200);
    expect(exactly.body.data).toHaveLength(DEFAULT_MAX_CANDLES);
    const small = await startPriceStub({ port: 0, maxCandles: 3, now: () => NOW });
    try {
      const url = (n: number) => `${small.url}/history?trading_pair=btc_usdt&startDate=${NOW - n * HOUR}&endDate=${NOW}&interval=3600`;
      expect((await get<History>(url(3), KEY)).body.data).toHaveLength(3);
      expect((await get(url(4), KEY)).status).toBe(400);
    } finally {
      await small.close();
    }
  });
});

describe('/history candles', () => {
  it.each([15, 30, 60, 3600, 86400])('interval %is: timestamps are multiples of the interval inside [startDate, endDate], ascending', async (interval) => {
    const span = Math.min(interval * 1000 * 50, PRICE_RETENTION_MS - DAY);
    const startDate = NOW - span + 12_345;
    const endDate = NOW - 7_777;
    const r = await history({ ...ok, startDate, endDate, interval });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('success');
    const ts = r.body.data.map((c) => c.timestamp);
    expect(ts.length).toBeGreaterThan(0);
    for (const t of ts) {
      expect(t % (interval * 1000)).toBe(0);
      expect(t).toBeGreaterThanOrEqual(startDate);
      expect(t).toBeLessThanOrEqual(endDate);
    }
    for (let i = 1; i < ts.length; i++) expect((ts[i] as number) - (ts[i - 1] as number)).toBe(interval * 1000);
    // First candle: the first multiple at or after startDate.
    expect(ts[0]).toBe(Math.ceil(startDate / (interval * 1000)) * interval * 1000);
  });

  it('only complete candles up to now: the last one ends at or before now', async () => {
    const r = await history({ ...ok, startDate: NOW - 5 * HOUR - 1, endDate: NOW + 10 * DAY });
    expect(r.body.data.map((c) => c.timestamp)).toEqual([5, 4, 3, 2, 1].map((h) => NOW - h * HOUR));
  });

  it('retention: nothing older than 30 days before now (an old range is an empty list)', async () => {
    const r = await history({ ...ok, startDate: NOW - 40 * DAY, endDate: NOW, interval: 86400 });
    const ts = r.body.data.map((c) => c.timestamp);
    expect(Math.min(...ts)).toBeGreaterThanOrEqual(NOW - PRICE_RETENTION_MS);
    // Daily candles starting 30 days .. 1 day before now: the boundary (exactly 30 days) is kept.
    expect(ts).toEqual(Array.from({ length: 30 }, (_, i) => NOW - (30 - i) * DAY));
    const old = await history({ ...ok, startDate: NOW - 60 * DAY, endDate: NOW - 31 * DAY, interval: 3600 });
    expect([old.status, old.body.data]).toEqual([200, []]);
    const future = await history({ ...ok, startDate: NOW + DAY, endDate: NOW + 2 * DAY, interval: 3600 });
    expect([future.status, future.body.data]).toEqual([200, []]);
  });

  it.each(Object.keys(PRICE_PAIRS))('%s: OHLC is consistent and volume positive', async (pair) => {
    const r = await history({ ...ok, trading_pair: pair, startDate: NOW - 2 * DAY, interval: 900 });
    expect(r.body.data.length).toBe(2 * 96);
    let prevClose: number | undefined;
    for (const c of r.body.data) {
      expect(Object.keys(c).sort()).toEqual(['close', 'high', 'low', 'open', 'timestamp', 'volume']);
      expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
      expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
      expect(c.low).toBeGreaterThan(0);
      expect(c.volume).toBeGreaterThan(0);
      if (prevClose !== undefined) expect(c.open).toBe(prevClose); // a continuous walk
      prevClose = c.close;
    }
  });

  it('the same candle whatever the window it is asked in', async () => {
    const wide = await history({ ...ok, startDate: NOW - 10 * HOUR, interval: 3600 });
    const narrow = await history({ ...ok, startDate: NOW - 3 * HOUR, endDate: NOW - 3 * HOUR, interval: 3600 });
    expect(narrow.body.data).toEqual(wide.body.data.filter((c) => c.timestamp === NOW - 3 * HOUR));
  });

  it('deterministic: same seed same bytes, another seed other prices', async () => {
    const a = await startPriceStub({ port: 0, seed: SEED, now: () => NOW });
    const b = await startPriceStub({ port: 0, seed: SEED + 1, now: () => NOW });
    try {
      const path = `/history?trading_pair=eth_usdt&startDate=${NOW - DAY}&endDate=${NOW}&interval=3600`;
      const mine = await get(`${ctx.stub.url}${path}`, KEY);
      expect((await get(`${a.url}${path}`, KEY)).text).toBe(mine.text);
      expect((await get(`${b.url}${path}`, KEY)).text).not.toBe(mine.text);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('the clock is injectable: retention and the last candle follow now()', async () => {
    let now = NOW;
    const stub = await startPriceStub({ port: 0, seed: SEED, now: () => now });
    try {
      const url = () => `${stub.url}/history?trading_pair=btc_usdt&startDate=${NOW - 3 * HOUR}&endDate=${NOW + 3 * HOUR}&interval=3600`;
      expect((await get<History>(url(), KEY)).body.data).toHaveLength(3);
      now = NOW + 2 * HOUR;
      expect((await get<History>(url(), KEY)).body.data).toHaveLength(5);
      now = NOW + 40 * DAY;
      expect((await get<History>(url(), KEY)).body.data).toEqual([]);
    } finally {
      await stub.close();
    }
  });
});

describe('/latest', () => {
  it('without a pair: every supported pair, one page; the key is not needed', async () => {
    const r = await get<Latest>(`${ctx.stub.url}/latest`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ currentPage: 1, totalPages: 1, totalRecords: 4, pageSize: LATEST_PAGE_SIZE });
    expect(r.body.instruments.map((i) => i.tradingPairs)).toEqual(Object.keys(PRICE_PAIRS));
    const withKey = await get<Latest>(`${ctx.stub.url}/latest`, { 'x-api-key': 'anything' });
    expect(withKey.text).toBe(r.text);
  });

  it('with a pair: that instrument only; all values are strings of the documented formats', async () => {
    const r = await get<Latest>(`${ctx.stub.url}/latest?trading_pair=supra_usdt`);
    expect(r.body.totalRecords).toBe(1);
    const i = r.body.instruments[0] as Instrument;
    expect(Object.keys(i).sort()).toEqual(['24h_change', '24h_high', '24h_low', 'currentPrice', 'time', 'timestamp', 'tradingPairs']);
    for (const v of Object.values(i)) expect(typeof v).toBe('string');
    expect(i.time).toBe(String(NOW));
    expect(i.timestamp).toBe('2024-11-20 00:00:00');
    for (const k of ['currentPrice', '24h_high', '24h_low', '24h_change'] as const) expect(i[k]).toMatch(/^-?[0-9]+(\.[0-9]+)?$/);
    expect(Number(i['24h_low'])).toBeLessThanOrEqual(Number(i.currentPrice));
    expect(Number(i['24h_high'])).toBeGreaterThanOrEqual(Number(i.currentPrice));
    expect(i.tradingPairs).toBe('supra_usdt');
  });

  it('currentPrice agrees with the close of the last candle', async () => {
    const latest = await get<Latest>(`${ctx.stub.url}/latest?trading_pair=btc_usdt`);
    const h = await history({ ...ok, startDate: NOW - HOUR, interval: 3600 });
    expect(Number(latest.body.instruments[0]?.currentPrice)).toBe(h.body.data.at(-1)?.close);
  });

  it.each([
    ['unknown pair', 'doge_usdt', 404, 'pair_not_found'],
    ['malformed pair', 'BTC-USDT', 400, 'invalid_parameter'],
  ])('%s is a %i', async (_label, pair, status, code) => {
    const r = await get<{ error: string }>(`${ctx.stub.url}/latest?trading_pair=${pair}`);
    expect([r.status, r.body.error]).toEqual([status, code]);
  });

  it('an unknown path is a 404 JSON body', async () => {
    const r = await get<{ error: string }>(`${ctx.stub.url}/candles`);
    expect([r.status, r.body.error]).toEqual([404, 'not_found']);
  });
});
