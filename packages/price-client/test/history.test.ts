import { beforeEach, describe, expect, it } from 'vitest';
import {
  createPriceClient,
  InvalidArgumentError,
  readInstrument,
  splitRange,
  type HistoryRangeParameters,
  type Instrument,
  type PriceClientOptions,
} from '@x/price-client';
import { rejectionOf, usePriceStub } from '@x-tools/test-helpers';
import { client, DAY, HOUR, KEY, NOW } from './helpers.ts';

const ctx = usePriceStub({ apiKey: KEY });
beforeEach(() => ctx.stub.reset());

const valid = { pair: 'btc_usdt', start: NOW - DAY, end: NOW, resolution: 3600 };

describe('history', () => {
  it('sends trading_pair, startDate, endDate, interval and the key header, exactly', async () => {
    const candles = await client(ctx.stub).history({ pair: 'eth_usdt', start: new Date(NOW - 6 * HOUR), end: NOW - 1, resolution: 3600 });
    expect(ctx.stub.requests).toHaveLength(1);
    const [request] = ctx.stub.requests;
    expect(request!.method).toBe('GET');
    expect(request!.url).toBe(`/history?trading_pair=eth_usdt&startDate=${NOW - 6 * HOUR}&endDate=${NOW - 1}&interval=3600`);
    expect(request!.headers['x-api-key']).toBe(KEY);
    expect(candles.map((c) => c.timestamp)).toEqual([6, 5, 4, 3, 2, 1].map((h) => NOW - h * HOUR));
  });

  it('takes a Date and Unix milliseconds alike', async () => {
    const prices = client(ctx.stub);
    const a = await prices.history({ ...valid, start: new Date(valid.start), end: new Date(valid.end) });
    const b = await prices.history(valid);
    expect(a).toEqual(b);
    expect(a).toHaveLength(24);
    const [first, second] = ctx.stub.requests;
    expect(first!.url).toBe(second!.url);
  });

  it('returns the candles sorted by timestamp even when the service does not', async () => {
    const sorted = await client(ctx.stub).history(valid);
    const prices = client(ctx.stub, {
      fetch: async (request) => {
        const response = await fetch(request);
        const body = (await response.json()) as { data: unknown[] };
        return Response.json({ ...body, data: [...body.data].reverse() }, { status: response.status });
      },
    });
    expect(await prices.history(valid)).toEqual(sorted);
  });

  it('answers an empty list outside the retention window', async () => {
    expect(await client(ctx.stub).history({ ...valid, start: NOW - 40 * DAY, end: NOW - 35 * DAY })).toEqual([]);
  });
});

describe('bad input is an InvalidArgumentError naming the parameter, before any request', () => {
  const bad: [string, Record<string, unknown>, string][] = [
    ['pair missing', { pair: undefined }, 'pair'],
    ['pair in upper case', { pair: 'BTC_USDT' }, 'pair'],
    ['pair without underscore', { pair: 'btcusdt' }, 'pair'],
    ['pair with a dash', { pair: 'btc-usdt' }, 'pair'],
    ['pair with three parts', { pair: 'btc_usdt_x' }, 'pair'],
    ['pair with a space', { pair: 'btc_ usdt' }, 'pair'],
    ['pair empty', { pair: '' }, 'pair'],
    ['pair a number', { pair: 42 }, 'pair'],
    ['start missing', { start: undefined }, 'start'],
    ['start NaN', { start: Number.NaN }, 'start'],
    ['start a fraction', { start: 1.5 }, 'start'],
    ['start negative', { start: -1 }, 'start'],
    ['start an invalid Date', { start: new Date('nope') }, 'start'],
    ['start an ISO string', { start: '2024-11-19T00:00:00Z' }, 'start'],
    ['start a bigint', { start: 1n }, 'start'],
    ['start after end', { start: NOW, end: NOW - 1 }, 'start'],
    ['end missing', { end: undefined }, 'end'],
    ['end Infinity', { end: Infinity }, 'end'],
    ['end above 2^53', { end: 2 ** 53 }, 'end'],
    ['resolution missing', { resolution: undefined }, 'resolution'],
    ['resolution 0', { resolution: 0 }, 'resolution'],
    ['resolution negative', { resolution: -60 }, 'resolution'],
    ['resolution a fraction', { resolution: 0.5 }, 'resolution'],
    ['resolution a string', { resolution: '60' }, 'resolution'],
    ['resolution NaN', { resolution: Number.NaN }, 'resolution'],
  ];

  it.each(bad)('history: %s', async (_name, change, parameter) => {
    const err = await rejectionOf(client(ctx.stub).history({ ...valid, ...change } as never));
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter });
    expect(ctx.stub.requests).toHaveLength(0);
  });

  it.each(bad)('historyRange: %s', async (_name, change, parameter) => {
    const err = await rejectionOf(client(ctx.stub).historyRange({ ...valid, ...change } as never).next());
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter });
    expect(ctx.stub.requests).toHaveLength(0);
  });

  const badRange: [string, Partial<HistoryRangeParameters>, string][] = [
    ['windowCandles 0', { windowCandles: 0 }, 'windowCandles'],
    ['windowCandles a fraction', { windowCandles: 2.5 }, 'windowCandles'],
    ['concurrency 0', { concurrency: 0 }, 'concurrency'],
    ['concurrency above 64', { concurrency: 65 }, 'concurrency'],
  ];
  it.each(badRange)('historyRange: %s', async (_name, change, parameter) => {
    const err = await rejectionOf(client(ctx.stub).historyRange({ ...valid, ...change }).next());
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter });
    expect(ctx.stub.requests).toHaveLength(0);
  });

  it('history without an API key', async () => {
    const prices = createPriceClient({ baseUrl: ctx.stub.url });
    const err = await rejectionOf(prices.history(valid));
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'apiKey' });
    await expect(prices.historyRange(valid).next()).rejects.toMatchObject({ parameter: 'apiKey' });
    expect(ctx.stub.requests).toHaveLength(0);
  });

  it('history with parameters that are not an object', async () => {
    await expect(client(ctx.stub).history(null as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'parameters' });
  });

  it('latest with a malformed pair', async () => {
    await expect(client(ctx.stub).latest({ pair: 'BTC/USDT' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'pair' });
    expect(ctx.stub.requests).toHaveLength(0);
  });

  const badOptions: [string, PriceClientOptions, string][] = [
    ['apiKey empty', { apiKey: '' }, 'apiKey'],
    ['apiKey not a string', { apiKey: 42 as never }, 'apiKey'],
    ['x-api-key among the headers', { headers: { 'X-Api-Key': KEY } }, 'headers'],
    ['x-api-key in a Headers object', { headers: new Headers({ 'X-Api-Key': KEY }) as never }, 'headers'],
    ['baseUrl not a URL', { baseUrl: 'prices.example' }, 'baseUrl'],
    ['baseUrl not http(s)', { baseUrl: 'ftp://prices.example' }, 'baseUrl'],
    ['baseUrl with a query', { baseUrl: 'https://prices.example/?key=1' }, 'baseUrl'],
  ];
  it.each(badOptions)('createPriceClient: %s', (_name, options, parameter) => {
    expect(() => createPriceClient(options)).toThrow(InvalidArgumentError);
    expect(() => createPriceClient(options)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', parameter }));
  });
});

describe('latest and readInstrument', () => {
  it('returns the typed body of one pair, or of every pair', async () => {
    const prices = client(ctx.stub);
    const one = await prices.latest({ pair: 'btc_usdt' });
    expect(one).toMatchObject({ currentPage: 1, totalPages: 1, totalRecords: 1 });
    expect(one.instruments.map((i) => i.tradingPairs)).toEqual(['btc_usdt']);
    const all = await prices.latest();
    expect(all.instruments.map((i) => i.tradingPairs).sort()).toEqual(['btc_usdt', 'eth_btc', 'eth_usdt', 'supra_usdt']);
    expect(ctx.stub.requests.map((r) => r.url)).toEqual(['/latest?trading_pair=btc_usdt', '/latest']);
  });

  it('works without an API key, and sends none', async () => {
    const prices = createPriceClient({ baseUrl: ctx.stub.url });
    await prices.latest({ pair: 'eth_btc' });
    expect(ctx.stub.requests[0]!.headers['x-api-key']).toBeUndefined();
  });

  it('reads decimal strings as numbers and times as dates, keeping the raw strings', async () => {
    const { instruments } = await client(ctx.stub).latest();
    for (const instrument of instruments) {
      const v = readInstrument(instrument);
      expect(v.raw).toBe(instrument);
      expect(v.pair).toBe(instrument.tradingPairs);
      expect(v.currentPrice).toBe(Number(instrument.currentPrice));
      expect(v.high24h).toBe(Number(instrument['24h_high']));
      expect(v.low24h).toBe(Number(instrument['24h_low']));
      expect(v.change24h).toBe(Number(instrument['24h_change']));
      expect(v.low24h).toBeLessThanOrEqual(v.currentPrice);
      expect(v.time.getTime()).toBe(Math.floor(NOW / 1000) * 1000);
      expect(v.timestamp.getTime()).toBe(v.time.getTime()); // the stub writes the UTC text of `time`
    }
  });

  const sample: Instrument = {
    time: '1732060800000',
    timestamp: '2024-11-20 00:00:00',
    currentPrice: '91234.56',
    '24h_high': '92000.00',
    '24h_low': '90000.10',
    '24h_change': '-1.25',
    tradingPairs: 'btc_usdt',
  };

  it('reads a well-formed instrument', () => {
    expect(readInstrument(sample)).toMatchObject({ currentPrice: 91234.56, change24h: -1.25, time: new Date(1732060800000), timestamp: new Date(1732060800000) });
  });

  const malformed: [keyof Instrument, string | undefined][] = [
    ['currentPrice', 'abc'],
    ['currentPrice', ''],
    ['currentPrice', 'NaN'],
    ['currentPrice', 'Infinity'],
    ['currentPrice', '1e5'],
    ['currentPrice', '1,000.5'],
    ['24h_high', ' 1.5'],
    ['24h_low', undefined],
    ['24h_change', '+1.2'],
    ['24h_change', '1.'],
    ['time', '-1'],
    ['time', '1732060800000.5'],
    ['time', '99999999999999999'],
    ['time', ''],
    ['timestamp', '2024-11-20T00:00:00'],
    ['timestamp', '2024-02-30 00:00:00'],
    ['timestamp', '2024-13-01 00:00:00'],
    ['timestamp', '2024-00-10 00:00:00'],
    ['timestamp', '2024-11-20 24:00:00'],
    ['timestamp', '2023-02-29 00:00:00'],
    ['timestamp', '2024-11-20 00:00'],
  ];
  it.each(malformed)('a malformed %s (%j) is an InvalidArgumentError, never NaN', (field, value) => {
    const instrument = { ...sample, [field]: value };
    expect(() => readInstrument(instrument)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', parameter: `instrument.${field}` }));
  });

  it('refuses a value that is not an instrument', () => {
    expect(() => readInstrument(null as never)).toThrow(expect.objectContaining({ parameter: 'instrument' }));
  });
});

describe('splitRange', () => {
  it('splits a range into inclusive, adjacent windows aligned to its start', () => {
    expect(splitRange(0, 25, 10)).toEqual([
      { start: 0, end: 9 },
      { start: 10, end: 19 },
      { start: 20, end: 25 },
    ]);
    expect(splitRange(5, 5, 10)).toEqual([{ start: 5, end: 5 }]);
    expect(splitRange(0, 19, 10)).toEqual([
      { start: 0, end: 9 },
      { start: 10, end: 19 },
    ]);
  });

  it.each([
    [0, 10, 0, 'windowMs'],
    [0, 10, 1.5, 'windowMs'],
    [-1, 10, 5, 'start'],
    [10, 0, 5, 'start'],
    [0, Infinity, 5, 'end'],
  ])('refuses splitRange(%d, %d, %d)', (start, end, windowMs, parameter) => {
    expect(() => splitRange(start, end, windowMs)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', parameter }));
  });
});
