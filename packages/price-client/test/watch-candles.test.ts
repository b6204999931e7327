/**
 * `prices.watchCandles` over real loopback WebSockets against the fake price service's candle feed
 * (`startPriceStub`: `feedTickMs: 0` leaves its clock to the test, which moves it and calls
 * `feed.tick()`). No wall clock: the tests wait for what the fake sees (connections, subscriptions).
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPriceClient, HttpError, ResponseShapeError, type CandleUpdate, type PriceClient, type WatchCandlesEvent, type WatchCandlesParameters } from '@x/price-client';
import { expectInvalid, rejectionOf, usePriceStub } from '@x-tools/test-helpers';
import { PRICE_PAIRS } from '@x/testing';
import { DAY, expectNoKey, KEY, NOW } from './helpers.ts';

const MINUTE = 60_000;
let clock = NOW;
const ctx = usePriceStub({ apiKey: KEY, now: () => clock, feedTickMs: 0 });
/** The streams of the running test, ended after it whatever happened (a signal ends one that waits on a tick). */
const running: AbortController[] = [];
beforeEach(() => {
  clock = NOW;
  ctx.stub.feed.reset();
  ctx.stub.reset();
});
afterEach(async () => {
  for (const controller of running.splice(0)) controller.abort(new Error('test over'));
  await until(() => ctx.stub.feed.connections === 0);
});

/** A client of the stub and its feed; reconnects wait at most a millisecond. */
const client = (): PriceClient =>
  createPriceClient({ baseUrl: ctx.stub.url, webSocketUrl: ctx.stub.webSocketUrl, apiKey: KEY, retry: { sleep: async () => undefined } });

/** Waits until `condition` holds (polled every millisecond, up to 5 s). */
const until = (condition: () => boolean): Promise<void> => vi.waitFor(() => expect(condition()).toBe(true), { interval: 1, timeout: 5000 });

/** A watch driven by hand: `tick(at)` moves the fake's clock to `at` and ticks once the socket is subscribed. */
function watch(parameters: Partial<WatchCandlesParameters> = {}) {
  const events: WatchCandlesEvent[] = [];
  const controller = new AbortController();
  running.push(controller);
  const stream = client().watchCandles({ pair: 'btc_usdt', resolution: 60, reconnect: { baseDelayMs: 1, maxDelayMs: 1 }, onEvent: (e) => events.push(e), signal: controller.signal, ...parameters });
  const iterator = stream[Symbol.asyncIterator]();
  const seen: CandleUpdate[] = [];
  let pending: Promise<IteratorResult<CandleUpdate>> | undefined;
  return {
    events,
    iterator,
    /** Asks for the next update (a stream works while its consumer waits on it). */
    pull(): void {
      pending ??= iterator.next();
    },
    /** Ticks at `at` once `subscriptions` sockets are subscribed. */
    async tick(at: number, subscriptions = 1): Promise<void> {
      pending ??= iterator.next();
      await until(() => ctx.stub.feed.subscriptions.length === subscriptions);
      clock = at;
      expect(ctx.stub.feed.tick()).toBe(subscriptions);
    },
    /** The next `n` updates. */
    async take(n: number): Promise<CandleUpdate[]> {
      const out: CandleUpdate[] = [];
      while (out.length < n) {
        const result = await (pending ?? iterator.next());
        pending = undefined;
        if (result.done) break;
        out.push(result.value);
        seen.push(result.value);
      }
      return out;
    },
    seen,
    /** Ends the stream as a `break` does (after the update asked for last), and waits for its socket to close. */
    async stop(): Promise<void> {
      if (pending === undefined) await iterator.return?.(undefined);
      else controller.abort(new Error('stopped'));
      await pending?.catch(() => undefined);
      await until(() => ctx.stub.feed.connections === 0);
    },
  };
}

const shape = (updates: CandleUpdate[]) => updates.map(({ candle, closed }) => [candle.timestamp - NOW, closed]);

/** Every slot given closed once, in order, a step apart; no update after a slot's closed candle. */
function expectExact(updates: CandleUpdate[], step = MINUTE): void {
  const closed = updates.filter((u) => u.closed).map((u) => u.candle.timestamp);
  for (let i = 1; i < closed.length; i++) expect(closed[i]! - closed[i - 1]!).toBe(step);
  let done = -Infinity;
  for (const u of updates) {
    expect(u.candle.timestamp).toBeGreaterThan(done);
    if (u.closed) done = u.candle.timestamp;
  }
}

describe('watchCandles', () => {
  it('subscribes in the feed unit, the key in the x-api-key header and never in the URL; the forming candle, then the closed one', async () => {
    const w = watch();
    await w.tick(NOW + 10_000);
    expect(ctx.stub.feed.subscriptions).toEqual([{ pair: 'btc_usdt', resolution: 1 }]);
    expect(ctx.stub.feed.upgrades.join(' ')).not.toContain(KEY);
    const [first] = await w.take(1);
    expect(first).toMatchObject({ candle: { timestamp: NOW }, closed: false });
    await w.tick(NOW + 40_000);
    const [second] = await w.take(1);
    expect(second!.closed).toBe(false);
    expect(second!.candle.timestamp).toBe(NOW);
    await w.tick(NOW + MINUTE + 5_000);
    const rolled = await w.take(2);
    expect(shape(rolled)).toEqual([[0, true], [MINUTE, false]]);
    // The closed candle is the slot's last state as the feed sent it.
    expect(rolled[0]!.candle).toEqual(second!.candle);
    expect(w.events).toEqual([{ type: 'connected' }]);
    await w.stop();
  });

  it('with since: the closed candles from /history, then live, no slot missing or repeated at the seam', async () => {
    const since = NOW - 10 * MINUTE + 1; // not on a slot: the first candle is the next slot's
    const w = watch({ since });
    await w.tick(NOW + 30_000);
    const updates = await w.take(10);
    const history = await client().history({ pair: 'btc_usdt', start: since, end: NOW - 1, resolution: 60 });
    expect(history).toHaveLength(9);
    expect(updates.slice(0, 9)).toEqual(history.map((candle) => ({ candle, closed: true })));
    expect(shape(updates.slice(9))).toEqual([[0, false]]);
    await w.tick(NOW + MINUTE + 1);
    expect(shape(await w.take(2))).toEqual([[0, true], [MINUTE, false]]);
    expectExact(w.seen);
    await w.stop();
  });

  it('asks /history again for the slots it lacks at the seam (history lagging the feed)', async () => {
    const w = watch({ since: NOW - 5 * MINUTE });
    await w.tick(NOW + 30_000);
    // The feed's tick is out; history's clock lags 1 min behind it until it has been asked once.
    clock = NOW - 30_000;
    await until(() => ctx.stub.requests.some((r) => r.operationId === 'getHistory'));
    clock = NOW + 30_000;
    const updates = await w.take(6);
    expect(shape(updates)).toEqual([[-5 * MINUTE, true], [-4 * MINUTE, true], [-3 * MINUTE, true], [-2 * MINUTE, true], [-MINUTE, true], [0, false]]);
    expect(ctx.stub.requests.filter((r) => r.operationId === 'getHistory').length).toBeGreaterThan(1);
    expectExact(w.seen);
    await w.stop();
  });

  it('after a dropped socket: reconnects, resubscribes, and fills the slots it missed from /history', async () => {
    const w = watch();
    await w.tick(NOW + 10_000);
    await w.take(1);
    ctx.stub.feed.fault('drop');
    clock = NOW + 3 * MINUTE + 5_000;
    await w.tick(NOW + 3 * MINUTE + 5_000);
    const updates = await w.take(4);
    expect(shape(updates)).toEqual([[0, true], [MINUTE, true], [2 * MINUTE, true], [3 * MINUTE, false]]);
    // The slots whose end the stream missed are history's candles, the forming slot's too.
    const history = await client().history({ pair: 'btc_usdt', start: NOW, end: NOW + 3 * MINUTE - 1, resolution: 60 });
    expect(updates.slice(0, 3).map((u) => u.candle)).toEqual(history);
    expect(ctx.stub.feed.connectionsOpened).toBe(2);
    expect(w.events.map((e) => e.type)).toEqual(['connected', 'disconnected', 'connected']);
    expectExact(w.seen);
    await w.stop();
  });

  it('reconnects a silent socket after watchdogMs without a tick', async () => {
    const w = watch({ watchdogMs: 30 });
    w.pull();
    await until(() => ctx.stub.feed.subscriptions.length === 1);
    ctx.stub.feed.fault('silence');
    // The watchdog closes the silent socket and a new one subscribes (whenever the watchdog fires, the
    // test waits on what the fake sees, not on time).
    await until(() => ctx.stub.feed.connectionsOpened >= 2 && ctx.stub.feed.connections === 1 && ctx.stub.feed.subscriptions.length === 1);
    const disconnected = w.events.find((e) => e.type === 'disconnected');
    expect(String(disconnected?.type === 'disconnected' && disconnected.error.cause)).toContain('watchdogMs');
    await w.stop();
  });

  it('reconnects a socket stuck resending a tick of a slot already closed after watchdogMs (a late tick is no news)', async () => {
    const w = watch({ watchdogMs: 50 });
    await w.tick(NOW + 10_000);
    await w.tick(NOW + MINUTE + 1);
    expect(shape(await w.take(3))).toEqual([[0, false], [0, true], [MINUTE, false]]);
    w.pull();
    // The feed sticks on the closed slot, far more often than the watchdog's period.
    clock = NOW + 10_000;
    const resend = setInterval(() => ctx.stub.feed.tick(), 2);
    try {
      await until(() => ctx.stub.feed.connectionsOpened >= 2);
    } finally {
      clearInterval(resend);
    }
    const disconnected = w.events.find((e) => e.type === 'disconnected');
    expect(String(disconnected?.type === 'disconnected' && disconnected.error.cause)).toContain('watchdogMs');
    // The new socket goes on with the forming slot; the stale ticks gave nothing.
    await w.tick(NOW + MINUTE + 20_000);
    expect(shape(await w.take(1))).toEqual([[MINUTE, false]]);
    expectExact(w.seen);
    await w.stop();
  });

  it('keeps a socket whose ticks repeat the forming candle unchanged (a price that does not move is news)', async () => {
    const w = watch({ watchdogMs: 400 });
    await w.tick(NOW + 10_000);
    await w.take(1);
    w.pull();
    // Three watchdog periods of the same tick of the forming slot: only a wait shows that nothing happens.
    const resend = setInterval(() => ctx.stub.feed.tick(), 5);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    clearInterval(resend);
    expect(ctx.stub.feed.connectionsOpened).toBe(1);
    expect(w.events).toEqual([{ type: 'connected' }]);
    await w.stop();
  });

  it('passes a garbage frame over (told through onEvent) and keeps the socket', async () => {
    const w = watch();
    await w.tick(NOW + 10_000);
    await w.take(1);
    ctx.stub.feed.fault('garbage');
    await until(() => w.events.some((e) => e.type === 'skipped'));
    await w.tick(NOW + 20_000);
    expect(shape(await w.take(1))).toEqual([[0, false]]);
    expect(ctx.stub.feed.connectionsOpened).toBe(1);
    const skipped = w.events.find((e) => e.type === 'skipped');
    expect(skipped?.type === 'skipped' && skipped.error.code).toBe('RESPONSE_SHAPE_ERROR');
    await w.stop();
  });

  it('a slow consumer gets the newest state of the forming candle, never a stale one, and every slot', async () => {
    const w = watch();
    await w.tick(NOW + 10_000);
    await w.take(1);
    // Three ticks while nobody reads; a garbage frame after them says when all three are in.
    for (const at of [NOW + 20_000, NOW + 30_000, NOW + 40_000]) {
      clock = at;
      ctx.stub.feed.tick();
    }
    ctx.stub.feed.fault('garbage');
    await until(() => w.events.some((e) => e.type === 'skipped'));
    const [newest] = await w.take(1);
    await w.tick(NOW + MINUTE + 1);
    const [closed, forming] = await w.take(2);
    expect(closed).toEqual({ candle: newest!.candle, closed: true });
    expect(forming!.candle.timestamp).toBe(NOW + MINUTE);
    // The newest is the tick at +40 s: the fake's forming volume grows with the time into the slot.
    expect(newest!.candle.volume).toBeCloseTo((PRICE_PAIRS.btc_usdt!.volumePerMinute * 40) / 60, 3);
    expectExact(w.seen);
    await w.stop();
  });

  it('a /history failure at the seam ends the stream with that error (no slot is skipped silently)', async () => {
    ctx.stub.failNext('getHistory', 400);
    const w = watch({ since: NOW - 5 * MINUTE });
    await w.tick(NOW + 30_000);
    const err = await rejectionOf(w.take(1));
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
    await until(() => ctx.stub.feed.connections === 0);
  });

  it('a refused upgrade (a wrong key) is an HttpError, not retried, and shows no key', async () => {
    const prices = createPriceClient({ baseUrl: ctx.stub.url, webSocketUrl: ctx.stub.webSocketUrl, apiKey: `${KEY}-wrong` });
    const err = await rejectionOf(prices.watchCandles({ pair: 'btc_usdt', resolution: 60 }).next());
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(403);
    expect(ctx.stub.feed.connectionsOpened).toBe(0);
    expectNoKey(err);
  });

  it('the signal ends the stream with its reason and closes the socket', async () => {
    const controller = new AbortController();
    const w = watch({ signal: controller.signal });
    await w.tick(NOW + 10_000);
    await w.take(1);
    const next = w.iterator.next();
    controller.abort(new Error('enough'));
    expect(await rejectionOf(next)).toEqual(new Error('enough'));
    await until(() => ctx.stub.feed.connections === 0);
  });
});

describe('watchCandles: what the server sends cannot break it', () => {
  it.each([
    // Far enough ahead that the wall clock of any run is behind it (the check is against the local clock).
    ['a century in the future', NOW + 100 * 365 * DAY],
    ['in microseconds', NOW * 1000],
  ])('a tick %s is skipped (a ResponseShapeError), not acted on: no /history asked, later ticks not late', async (_name, at) => {
    const w = watch({ since: NOW - 2 * MINUTE });
    await w.tick(NOW + 10_000);
    expect(shape(await w.take(3))).toEqual([[-2 * MINUTE, true], [-MINUTE, true], [0, false]]);
    const asked = ctx.stub.requests.length;
    clock = at;
    expect(ctx.stub.feed.tick()).toBe(1);
    clock = NOW + 20_000;
    // A garbage frame after it says when the tick is in (frames of a socket come in order).
    ctx.stub.feed.fault('garbage');
    await until(() => w.events.some((e) => e.type === 'skipped'));
    const skipped = w.events.filter((e) => e.type === 'skipped').map((e) => e.error);
    expect(skipped).toHaveLength(2);
    expect(skipped[0]).toBeInstanceOf(ResponseShapeError);
    expect(skipped[0]!.path).toBe('/payload/0/time');
    await w.tick(NOW + MINUTE + 1);
    expect(shape(await w.take(2))).toEqual([[0, true], [MINUTE, false]]);
    expect(ctx.stub.requests.length).toBe(asked);
    expectExact(w.seen);
    await w.stop();
  });

  it('a hook that throws is its own failure: connected, skipped and disconnected each go on', async () => {
    const told: string[] = [];
    const w = watch({
      onEvent: (e) => {
        told.push(e.type);
        throw new Error('the hook failed');
      },
    });
    await w.tick(NOW + 10_000);
    await w.take(1);
    ctx.stub.feed.fault('garbage');
    await until(() => told.includes('skipped'));
    ctx.stub.feed.fault('drop');
    await w.tick(NOW + 20_000);
    expect(shape(await w.take(1))).toEqual([[0, false]]);
    expect(told).toEqual(['connected', 'skipped', 'disconnected', 'connected']);
    // The garbage frame's throwing hook did not end its socket: only the drop did.
    expect(ctx.stub.feed.connectionsOpened).toBe(2);
    await w.stop();
  });

  it('a close reason that echoes the key reaches onEvent redacted', async () => {
    // A WebSocket server of the test's own, on node:http: it accepts each upgrade and closes it at once,
    // with code 1011 and a reason that quotes the x-api-key header.
    const server = createServer();
    const sockets: Duplex[] = [];
    server.on('upgrade', (req, socket: Duplex) => {
      sockets.push(socket);
      const accept = createHash('sha1').update(`${String(req.headers['sec-websocket-key'])}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
      const reason = Buffer.from(`no capacity for ${String(req.headers['x-api-key'])}`);
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: ${accept}\r\n\r\n`);
      socket.end(Buffer.concat([Buffer.from([0x88, reason.length + 2, 0x03, 0xf3]), reason]));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const controller = new AbortController();
    const events: WatchCandlesEvent[] = [];
    const { port } = server.address() as AddressInfo;
    const prices = createPriceClient({ baseUrl: ctx.stub.url, webSocketUrl: `ws://127.0.0.1:${port}`, apiKey: KEY });
    const done = prices.watchCandles({ pair: 'btc_usdt', resolution: 60, reconnect: { baseDelayMs: 1, maxDelayMs: 1 }, signal: controller.signal, onEvent: (e) => events.push(e) }).next();
    await until(() => events.some((e) => e.type === 'disconnected'));
    controller.abort(new Error('seen'));
    await done.catch(() => undefined);
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
    const disconnected = events.find((e) => e.type === 'disconnected');
    expect(String(disconnected?.type === 'disconnected' && disconnected.error.cause)).toContain('1011: no capacity for');
    expectNoKey(disconnected);
  });

  /**
   * Nobody reads while the feed ticks `slots` minutes: the socket closes once 256 are held (the fake sees
   * no connection); then the held slots are read, up to the 256th.
   */
  const overflow = async (w: ReturnType<typeof watch>, slots: number): Promise<void> => {
    for (let k = 1; k <= slots; k++) {
      clock = NOW + k * MINUTE + 10_000;
      ctx.stub.feed.tick();
    }
    await until(() => ctx.stub.feed.connections === 0);
    while (w.seen.at(-1)!.candle.timestamp < NOW + 256 * MINUTE) await w.take(1);
  };

  it(`a stream nobody reads keeps at most ${256} slots: then its socket closes, and the slots come from /history when it reads`, async () => {
    const w = watch();
    await w.tick(NOW + 10_000);
    await w.take(1);
    // The queued ticks come first (the forming candle of slots 1 to 256, each closed at the next) ...
    await overflow(w, 260);
    expect(w.seen.at(-1)).toMatchObject({ closed: false });
    // ... then a new socket, and the slots it missed from /history.
    await w.tick(NOW + 300 * MINUTE + 10_000);
    while (w.seen.at(-1)!.candle.timestamp < NOW + 300 * MINUTE) await w.take(1);
    const closed = w.seen.filter((u) => u.closed).map((u) => (u.candle.timestamp - NOW) / MINUTE);
    expect(closed).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expectExact(w.seen);
    expect(ctx.stub.feed.connectionsOpened).toBe(2);
    await w.stop();
  });

  it('an overflow is no failure: once the held slots are read, the next socket opens at once, without the reconnect backoff', async () => {
    // A backoff of up to 24 days: a reconnect that waited on it would never come within the test.
    const w = watch({ reconnect: { baseDelayMs: 2 ** 31 - 1, maxDelayMs: 2 ** 31 - 1 } });
    await w.tick(NOW + 10_000);
    await w.take(1);
    await overflow(w, 257);
    await w.tick(NOW + 260 * MINUTE + 10_000);
    while (w.seen.at(-1)!.candle.timestamp < NOW + 260 * MINUTE) await w.take(1);
    expect(w.events.filter((e) => e.type === 'disconnected')).toMatchObject([{ delayMs: 0 }]);
    expect(ctx.stub.feed.connectionsOpened).toBe(2);
    expectExact(w.seen);
    await w.stop();
  });
});

describe('watchCandles: bad input, before any connection', () => {
  const cases: [string, Partial<WatchCandlesParameters>, string][] = [
    ['a pair in another spelling', { pair: 'BTC-USDT' }, 'pair'],
    ['a pair that is no pair', { pair: 'btc' }, 'pair'],
    ['seconds that are no whole minute', { resolution: 90 }, 'resolution'],
    ['a resolution under a minute', { resolution: 15 }, 'resolution'],
    ['a resolution over a day', { resolution: 2 * 86_400 }, 'resolution'],
    ['milliseconds for seconds', { resolution: 3_600_000 }, 'resolution'],
    ['a resolution that is no number', { resolution: '60' as never }, 'resolution'],
    ['since in seconds', { since: Math.floor(NOW / 1000) }, 'since'],
    ['since not a time', { since: 'yesterday' as never }, 'since'],
    ['a negative watchdog', { watchdogMs: -1 }, 'watchdogMs'],
  ];
  it.each(cases)('%s names %s', async (_name, parameters, option) => {
    await expectInvalid(client().watchCandles({ pair: 'btc_usdt', resolution: 60, ...parameters }).next(), option);
    expect(ctx.stub.feed.connectionsOpened).toBe(0);
  });

  it('an aborted signal rejects with its reason, before any connection', async () => {
    const reason = new Error('not now');
    expect(await rejectionOf(client().watchCandles({ pair: 'btc_usdt', resolution: 60, signal: AbortSignal.abort(reason) }).next())).toBe(reason);
    expect(ctx.stub.feed.connectionsOpened).toBe(0);
  });

  it('without an API key names apiKey', async () => {
    await expectInvalid(createPriceClient({ webSocketUrl: ctx.stub.webSocketUrl }).watchCandles({ pair: 'btc_usdt', resolution: 60 }).next(), 'apiKey');
    expect(ctx.stub.feed.connectionsOpened).toBe(0);
  });

  it.each([
    ['an https URL', 'https://prod-kline-ws.supra.com'],
    ['an http URL', ctx.stub?.url ?? 'http://127.0.0.1:1'],
    ['no URL', 'prod-kline-ws.supra.com'],
    ['the key in the URL', `wss://prod-kline-ws.supra.com/?key=${KEY}`],
    ['the key in its path', `wss://prod-kline-ws.supra.com/${KEY}/feed`],
    ['the key as a bare query name', `wss://prod-kline-ws.supra.com/?${KEY}`],
    ['the key in the fragment', `wss://prod-kline-ws.supra.com/#${KEY}`],
    ['the key as a value in the fragment', `wss://prod-kline-ws.supra.com/#key=${KEY}`],
    ['not a string', 42 as never],
  ])('a webSocketUrl that is %s names webSocketUrl', async (_name, webSocketUrl) => {
    ctx.stub.feed.reset();
    await expectInvalid(createPriceClient({ apiKey: KEY, webSocketUrl }).watchCandles({ pair: 'btc_usdt', resolution: 60 }).next(), 'webSocketUrl');
    expect(ctx.stub.feed.connectionsOpened).toBe(0);
  });
});
