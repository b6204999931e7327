/**
 * The price stub's one default clock, the wall clock, on every transport (loopback, in memory, MSW), and
 * `x-stub-clock` on every answer it gives, so that a `data: []` of a range outside the clock says why.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNodeStubFetch, createPriceStubFetch, DEFAULT_PRICE_NOW, startPriceStub, type FetchFunction, type PriceStubHandle } from '../src/index.ts';
import { priceHandlers } from '../src/msw.ts';

const HOUR = 3_600_000;
const FIXED = new Date(DEFAULT_PRICE_NOW).toISOString(); // '2024-11-20T00:00:00.000Z'
const KEY = { 'x-api-key': 'test-key' };
const history = (start: number, end: number, interval = 3600): string =>
  `/history?trading_pair=btc_usdt&startDate=${start}&endDate=${end}&interval=${interval}`;
/** The last 24 whole hours before now (24 complete hourly candles on a wall-clock stub). */
const lastDay = (): string => {
  const end = Math.floor(Date.now() / HOUR) * HOUR;
  return history(end - 24 * HOUR, end - 1);
};

const mswDefault = priceHandlers({ baseUrl: 'https://default.prices.test' });
const mswFixed = priceHandlers({ baseUrl: 'https://fixed.prices.test', now: () => DEFAULT_PRICE_NOW });
const server = setupServer(...mswDefault, ...mswFixed);
let loopDefault: PriceStubHandle;
let loopFixed: PriceStubHandle;

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'bypass' });
  [loopDefault, loopFixed] = await Promise.all([startPriceStub(), startPriceStub({ now: () => DEFAULT_PRICE_NOW })]);
});
afterEach(() => vi.useRealTimers());
afterAll(async () => {
  server.close();
  await Promise.all([loopDefault.close(), loopFixed.close()]);
});

type Get = (path: string, init?: RequestInit) => Promise<Response>;
/**
 * Each transport as a fetch of paths, with the default clock or the fixed one (the loopback URLs and the
 * global fetch MSW patches are read at the request).
 */
const transports = (fixed: boolean): Array<[string, Get]> => {
  const mem: FetchFunction & { url: string } = createPriceStubFetch(fixed ? { now: () => DEFAULT_PRICE_NOW } : {});
  return [
    ['loopback', (path, init) => fetch(`${(fixed ? loopFixed : loopDefault).url}${path}`, init)],
    ['in-memory', (path, init) => mem(`${mem.url}${path}`, init)],
    ['msw', (path, init) => fetch(`${(fixed ? mswFixed : mswDefault).url}${path}`, init)],
  ];
};

describe('the default clock is the wall clock, on every transport', () => {
  it('now() reads Date.now() at each call', () => {
    for (const stub of [createPriceStubFetch(), loopDefault, mswDefault]) {
      const before = Date.now();
      const now = stub.now();
      expect(now).toBeGreaterThanOrEqual(before);
      expect(now).toBeLessThanOrEqual(Date.now());
    }
  });

  it.each(transports(false))('%s: the last 24 hours have 24 hourly candles, and x-stub-clock is about now', async (_name, get) => {
    const before = Date.now();
    const res = await get(lastDay(), { headers: KEY });
    const clock = Date.parse(res.headers.get('x-stub-clock') ?? '');
    expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(24);
    expect(clock).toBeGreaterThanOrEqual(before);
    expect(clock).toBeLessThanOrEqual(Date.now());
  });

  it('follows fake timers that replace Date', async () => {
    vi.useFakeTimers({ now: Date.UTC(2030, 0, 2), toFake: ['Date'] });
    const stub = createPriceStubFetch();
    expect(stub.now()).toBe(Date.UTC(2030, 0, 2));
    const res = await stub(`${stub.url}/latest?trading_pair=btc_usdt`);
    expect(res.headers.get('x-stub-clock')).toBe('2030-01-02T00:00:00.000Z');
    const body = (await res.json()) as { instruments: Array<{ time: string }> };
    expect(body.instruments[0]?.time).toBe(String(Date.UTC(2030, 0, 2)));
  });
});

describe('the fixed clock, opted into with now: () => DEFAULT_PRICE_NOW', () => {
  it.each(transports(true))('%s: candles of the day before it; a range after it is [] and x-stub-clock says why', async (_name, get) => {
    const before = await get(history(DEFAULT_PRICE_NOW - 24 * HOUR, DEFAULT_PRICE_NOW - 1), { headers: KEY });
    expect(((await before.json()) as { data: unknown[] }).data).toHaveLength(24);
    expect(before.headers.get('x-stub-clock')).toBe(FIXED);
    // The wall clock's last day lies after the fixed clock: the future, answered as a real service would.
    const after = await get(lastDay(), { headers: KEY });
    expect([after.status, await after.json()]).toEqual([200, { status: 'success', data: [] }]);
    expect(after.headers.get('x-stub-clock')).toBe(FIXED);
  });
});

describe('x-stub-clock on every answer of the price stub', () => {
  const CASES: Array<{ name: string; path: string; method?: string; headers?: Record<string, string>; status: number }> = [
    { name: 'history', path: history(DEFAULT_PRICE_NOW - 3 * HOUR, DEFAULT_PRICE_NOW), headers: KEY, status: 200 },
    { name: 'latest', path: '/latest', status: 200 },
    { name: 'history without a key (401)', path: history(0, 1), status: 401 },
    { name: 'history with a wrong key (403)', path: history(0, 1), headers: { 'x-api-key': 'nope' }, status: 403 },
    { name: 'a malformed parameter (400)', path: '/history?trading_pair=btc_usdt&startDate=x&endDate=1&interval=60', headers: KEY, status: 400 },
    { name: 'too many candles (400)', path: history(0, DEFAULT_PRICE_NOW, 1), headers: KEY, status: 400 },
    { name: 'an unknown pair (404)', path: '/latest?trading_pair=abc_def', status: 404 },
    { name: 'an unknown path (404)', path: '/nowhere', status: 404 },
    { name: 'another method (405)', path: '/latest', method: 'DELETE', status: 405 },
    { name: 'a status fault', path: '/latest', headers: { 'x-stub-fault': '503' }, status: 503 },
    { name: 'an html fault', path: '/latest', headers: { 'x-stub-fault': 'html' }, status: 502 },
    { name: 'a not-json fault', path: '/latest', headers: { 'x-stub-fault': 'not-json' }, status: 200 },
    { name: 'a slow answer', path: '/latest', headers: { 'x-stub-fault': 'slow', 'x-stub-delay-ms': '10' }, status: 200 },
    { name: 'a redirect fault', path: '/latest', headers: { 'x-stub-fault': '307', 'x-stub-redirect-to': '{url}&moved=1' }, status: 307 },
    { name: 'a bad fault request', path: '/latest', headers: { 'x-stub-fault': 'nope' }, status: 400 },
    { name: 'a preflight', path: '/history', method: 'OPTIONS', status: 204 },
    { name: 'emptying the request log', path: '/__stub/requests', method: 'DELETE', status: 200 },
  ];

  for (const [transport, get] of transports(true)) {
    it.each(CASES)(`${transport}: $name`, async ({ path, method = 'GET', headers = {}, status }) => {
      const res = await get(path, { method, headers, redirect: 'manual' });
      expect(res.status).toBe(status);
      expect(res.headers.get('x-stub-clock')).toBe(FIXED);
    });
  }

  it('a truncated answer carries it in its headers', async () => {
    const stub = createPriceStubFetch({ now: () => DEFAULT_PRICE_NOW });
    const res = await stub(`${stub.url}/latest`, { headers: { 'x-stub-fault': 'truncated' } });
    expect(res.headers.get('x-stub-clock')).toBe(FIXED);
    await expect(res.text()).rejects.toThrow(TypeError);
  });

  it('is the clock the answer was computed at, as the clock moves', async () => {
    let now = DEFAULT_PRICE_NOW;
    const stub = createPriceStubFetch({ now: () => now });
    now += 90 * 60_000;
    const res = await stub(`${stub.url}${history(DEFAULT_PRICE_NOW - 3 * HOUR, now)}`, { headers: KEY });
    expect(res.headers.get('x-stub-clock')).toBe('2024-11-20T01:30:00.000Z');
    // The candle of 00:00-01:00 is complete at 01:30; the one of 01:00 is not.
    expect(((await res.json()) as { data: Array<{ timestamp: number }> }).data.at(-1)?.timestamp).toBe(DEFAULT_PRICE_NOW);
  });

  it('a clock of the caller that throws still gets an answer (the stub says what broke), without the header', async () => {
    const stub = createPriceStubFetch({
      now: () => {
        throw new Error('clock broke');
      },
    });
    const res = await stub(`${stub.url}/latest`);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error: 'stub_internal_error', message: 'clock broke' });
    expect(res.headers.has('x-stub-clock')).toBe(false);
    const fault = await stub(`${stub.url}/latest`, { headers: { 'x-stub-fault': '503' } });
    expect([fault.status, fault.headers.has('x-stub-clock')]).toEqual([503, false]);
  });

  it('the node stub has no clock, and sends no x-stub-clock', async () => {
    const node = createNodeStubFetch();
    expect((await node(`${node.url}/rpc/v2/accounts/0x1`)).headers.has('x-stub-clock')).toBe(false);
  });
});
