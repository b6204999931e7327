import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONCURRENCY, DEFAULT_WINDOW_CANDLES, type Candle, type HistoryRangeParameters, type PriceClient } from '@x/price-client';
import { rejectionOf, useFakeTime, usePriceStub } from '@x-tools/test-helpers';
import { client, DAY, HOUR, KEY, NOW, queryOf } from './helpers.ts';

const ctx = usePriceStub({ apiKey: KEY });
beforeEach(() => ctx.stub.reset());
/**
 * The tests of windows in flight run on fake time: the stub's `slow` answers wait for the test to move
 * time on, so windows stay open exactly as long as a test needs them to, and none waits on the wall clock.
 */
const time = useFakeTime();

const collect = async (it: AsyncIterable<Candle>): Promise<Candle[]> => {
  const out: Candle[] = [];
  for await (const c of it) out.push(c);
  return out;
};

/** Ten days of hourly candles, in windows of one day: 11 windows (the last is the single ms `NOW`). */
const range: HistoryRangeParameters = { pair: 'btc_usdt', start: NOW - 10 * DAY, end: NOW, resolution: 3600, windowCandles: 24 };

/** The same candles in one request (the stub answers a candle identically whatever window asks for it). */
const whole = (prices: PriceClient): Promise<Candle[]> => prices.history(range);

/** The windows' queries, in window order. */
const windowQueries = (): Record<string, string>[] =>
  ctx.stub.requests.map((r) => queryOf(r.url)).sort((a, b) => Number(a.startDate) - Number(b.startDate));

describe('historyRange', () => {
  it('splits the range into windows of windowCandles intervals and sends each exactly', async () => {
    const candles = await collect(client(ctx.stub).historyRange(range));
    const expected = Array.from({ length: 11 }, (_, i) => ({
      trading_pair: 'btc_usdt',
      startDate: String(NOW - 10 * DAY + i * DAY),
      endDate: String(Math.min(NOW, NOW - 10 * DAY + (i + 1) * DAY - 1)),
      interval: '3600',
    }));
    expect(windowQueries()).toEqual(expected);
    expect(candles).toHaveLength(240);
    ctx.stub.reset();
    expect(candles).toEqual(await whole(client(ctx.stub)));
  });

  it(`uses windows of ${DEFAULT_WINDOW_CANDLES} intervals by default`, async () => {
    const candles = await collect(client(ctx.stub).historyRange({ pair: 'eth_usdt', start: NOW - 2 * DAY, end: NOW - 1, resolution: 60 }));
    expect(candles).toHaveLength(2880);
    expect(windowQueries().map((q) => [Number(q.startDate), Number(q.endDate)])).toEqual([
      [NOW - 2 * DAY, NOW - 2 * DAY + 60_000_000 - 1],
      [NOW - 2 * DAY + 60_000_000, NOW - 2 * DAY + 120_000_000 - 1],
      [NOW - 2 * DAY + 120_000_000, NOW - 1],
    ]);
  });

  it('yields every candle in timestamp order, once, with start and end not aligned to the interval', async () => {
    const params = { ...range, start: NOW - 3 * DAY + 1234, end: NOW - 5 * HOUR - 1, windowCandles: 7 };
    const candles = await collect(client(ctx.stub).historyRange(params));
    const stamps = candles.map((c) => c.timestamp);
    expect(stamps[0]).toBe(NOW - 3 * DAY + HOUR);
    expect(stamps.at(-1)).toBe(NOW - 6 * HOUR);
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]! - stamps[i - 1]!).toBe(HOUR);
    expect(candles).toEqual(await client(ctx.stub).history(params));
  });

  it(`fetches at most concurrency windows at once (default ${DEFAULT_CONCURRENCY})`, async () => {
    time.start();
    for (const concurrency of [1, 3, undefined]) {
      let open = 0;
      let most = 0;
      const prices = client(ctx.stub, {
        headers: { 'x-stub-fault': 'slow', 'x-stub-delay-ms': '30' },
        fetch: async (request) => {
          most = Math.max(most, ++open);
          try {
            return await fetch(request);
          } finally {
            open--;
          }
        },
      });
      // Each window answers 30 ms after it arrived: time moves on 30 ms at a time until the last one has.
      const candles = await time.drive(collect(prices.historyRange({ ...range, windowCandles: 48, concurrency })), 'the windows', { stepMs: 30 });
      expect(candles).toHaveLength(240);
      expect(most).toBe(concurrency ?? DEFAULT_CONCURRENCY);
    }
  });

  it('drops duplicates where windows overlap: each window also asked for the two candles before it', async () => {
    const prices = client(ctx.stub, {
      fetch: (request) => {
        const url = new URL(request.url);
        url.searchParams.set('startDate', String(Math.max(0, Number(url.searchParams.get('startDate')) - 2 * HOUR)));
        return fetch(new Request(url, request));
      },
    });
    const candles = await collect(prices.historyRange(range));
    // The overlap is real: the service answered 2 extra candles for every window but the first.
    const answered = ctx.stub.requests.map((r) => queryOf(r.url));
    expect(Number(answered[1]!.startDate)).toBe(NOW - 9 * DAY - 2 * HOUR);
    expect(candles).toEqual(await whole(client(ctx.stub)));
  });

  it('sorts and de-duplicates windows answered out of order, with edge candles repeated', async () => {
    const prices = client(ctx.stub, {
      fetch: async (request) => {
        const response = await fetch(request);
        const body = (await response.json()) as { status: string; data: Candle[] };
        const data = body.data;
        // Edge candles twice, and the rest reversed.
        const mangled = data.length === 0 ? data : [data.at(-1)!, ...[...data].reverse(), data[0]!, data.at(-1)!];
        return Response.json({ ...body, data: mangled }, { status: response.status });
      },
    });
    const candles = await collect(prices.historyRange(range));
    const stamps = candles.map((c) => c.timestamp);
    expect(new Set(stamps).size).toBe(stamps.length);
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
    expect(candles).toEqual(await whole(client(ctx.stub)));
  });

  it('keeps candles a window answered outside the requested range out', async () => {
    const prices = client(ctx.stub, {
      fetch: (request) => {
        const url = new URL(request.url);
        url.searchParams.set('startDate', String(Number(url.searchParams.get('startDate')) - DAY));
        url.searchParams.set('endDate', String(Number(url.searchParams.get('endDate')) + DAY));
        return fetch(new Request(url, request));
      },
    });
    const params = { ...range, start: NOW - 5 * DAY, end: NOW - 3 * DAY };
    const candles = await collect(prices.historyRange(params));
    expect(candles[0]!.timestamp).toBe(params.start);
    expect(candles.at(-1)!.timestamp).toBe(params.end);
    expect(candles).toHaveLength(49);
  });
});

describe('historyRange: stopping', () => {
  /** Window starts requested for `pair` (each test below uses its own pair, as aborted requests may arrive late). */
  const startsOf = (pair: string): number[] =>
    ctx.stub.requests
      .map((r) => queryOf(r.url))
      .filter((q) => q.trading_pair === pair)
      .map((q) => Number(q.startDate));
  const windowStart = (i: number): number => (range.start as number) + i * DAY;

  it('rejects with the reason of an already aborted signal, sending nothing', async () => {
    const reason = new Error('not needed any more');
    const err = await rejectionOf(client(ctx.stub).historyRange({ ...range, signal: AbortSignal.abort(reason) }).next());
    expect(err).toBe(reason);
    expect(ctx.stub.requests).toHaveLength(0);
  });

  it('rejects with the reason of an abort in the middle, and launches no further window', async () => {
    time.start();
    // Windows after the first are slow, so the abort lands while they are open.
    const prices = client(ctx.stub, {
      fetch: (request) => {
        if (queryOf(request.url).startDate === String(range.start)) return fetch(request);
        const headers = new Headers(request.headers);
        headers.set('x-stub-fault', 'slow');
        headers.set('x-stub-delay-ms', '5000');
        return fetch(new Request(request, { headers }));
      },
    });
    const controller = new AbortController();
    const reason = new Error('user left the page');
    const seen: Candle[] = [];
    const started = Date.now();
    const err = await time.settles(
      rejectionOf(
        (async () => {
          for await (const c of prices.historyRange({ ...range, pair: 'supra_usdt', concurrency: 2, signal: controller.signal })) {
            seen.push(c);
            if (seen.length === 3) controller.abort(reason);
          }
        })(),
      ),
      'the rejection',
    );
    expect(err).toBe(reason);
    expect(seen).toHaveLength(24); // the first window had arrived whole; nothing after the abort
    // The slow windows were abandoned, not awaited: the rejection came with time standing still.
    expect(Date.now() - started).toBeLessThan(4000);
    await time.realPause(100); // for aborted requests to arrive, if they were sent
    // 2 at first, a 3rd launched when the first was consumed (it may be aborted before it is sent).
    expect(startsOf('supra_usdt').every((s) => s <= windowStart(2))).toBe(true);
  });

  it('cancels open requests and launches no more when the loop is left early', async () => {
    time.start();
    const prices = client(ctx.stub, { headers: { 'x-stub-fault': 'slow', 'x-stub-delay-ms': '20' } });
    const seen: Candle[] = [];
    const loop = async (): Promise<void> => {
      for await (const c of prices.historyRange({ ...range, pair: 'eth_btc', concurrency: 2 })) {
        seen.push(c);
        if (seen.length === 30) break;
      }
    };
    // Each answer comes 20 ms after its request arrived: time moves on 20 ms at a time.
    await time.drive(loop(), 'the loop', { stepMs: 20 });
    const expected = await time.drive(prices.history({ ...range, pair: 'eth_btc', end: windowStart(2) - 1 }), 'the history', { stepMs: 20 });
    expect(seen).toEqual(expected.slice(0, 30));
    await time.realPause(100); // for aborted requests to arrive, if they were sent
    // Windows 0 and 1 were consumed, 2 and 3 launched meanwhile (and aborted); none after them.
    expect(startsOf('eth_btc').every((s) => s <= windowStart(3))).toBe(true);
  });
});
