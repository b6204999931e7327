/**
 * The price stub's candle feed over loopback WebSockets (`ws` as the client): the key on the upgrade,
 * the subscribe message in either spelling of its pair list, ticks on the stub's clock (`feed.tick()`;
 * `feedTickMs: 0` leaves the clock to the test), and the faults: drop, garbage, silence.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { guardProcess } from '@x-tools/test-helpers';
import { DEFAULT_PRICE_API_KEY, DEFAULT_PRICE_NOW, PRICE_FEED_CHANNEL, startPriceStub, type PriceFeedTick, type PriceStubHandle } from '../src/index.ts';

guardProcess();
let clock = DEFAULT_PRICE_NOW;
let stub: PriceStubHandle;
beforeAll(async () => {
  stub = await startPriceStub({ seed: 7, now: () => clock, feedTickMs: 0 });
});
afterAll(() => stub.close());
beforeEach(() => {
  clock = DEFAULT_PRICE_NOW;
  stub.feed.reset();
});

/** A connected client: its frames as they come, and a way to wait for the next one. */
async function connect(headers: Record<string, string> = { 'x-api-key': DEFAULT_PRICE_API_KEY }) {
  const socket = new WebSocket(stub.webSocketUrl, { headers });
  const frames: string[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data) => {
    frames.push(String(data));
    waiters.splice(0).forEach((w) => w());
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const next = async (): Promise<string> => {
    if (frames.length === 0) await new Promise<void>((resolve) => waiters.push(resolve));
    return frames.shift()!;
  };
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  return { socket, next, closed, frames };
}

const subscribe = (resolution: number, pairs: string[], key = 'tradingPairs') =>
  JSON.stringify({ action: 'subscribe', channels: [{ name: PRICE_FEED_CHANNEL, resolution, [key]: pairs }] });

/** Waits until the stub has `n` subscriptions (the subscribe frame is on its way). */
async function subscribed(n: number): Promise<void> {
  while (stub.feed.subscriptions.length < n) await new Promise((resolve) => setImmediate(resolve));
}

describe('the candle feed', () => {
  it('refuses an upgrade without the key (401) or with another (403)', async () => {
    for (const [headers, status] of [[{}, 401], [{ 'x-api-key': 'other' }, 403]] as const) {
      const socket = new WebSocket(stub.webSocketUrl, { headers });
      const code = await new Promise<number>((resolve) => {
        socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        socket.once('error', () => resolve(-1));
      });
      socket.terminate();
      expect(code).toBe(status);
    }
    expect(stub.feed.connectionsOpened).toBe(0);
  });

  it('sends the forming candle of each subscribed pair on each tick, in either spelling of the pair list', async () => {
    for (const key of ['tradingPairs', 'dataPairs']) {
      const c = await connect();
      c.socket.send(subscribe(5, ['btc_usdt', 'eth_usdt'], key));
      await subscribed(2);
      clock = DEFAULT_PRICE_NOW + 90_000;
      expect(stub.feed.tick()).toBe(1);
      const frame = JSON.parse(await c.next()) as { event: string; payload: PriceFeedTick[] };
      expect(frame.event).toBe(PRICE_FEED_CHANNEL);
      expect(frame.payload.map((t) => [t.tradingPair, t.resolution, t.time])).toEqual([
        ['btc_usdt', 5, clock],
        ['eth_usdt', 5, clock],
      ]);
      const [btc] = frame.payload;
      expect(btc!.timestamp).toBe('2024-11-20 00:01:30');
      expect(btc!.currentPrice).toBe(btc!.close);
      expect(btc!.high).toBeGreaterThanOrEqual(Math.max(btc!.open, btc!.close));
      expect(btc!.low).toBeLessThanOrEqual(Math.min(btc!.open, btc!.close));
      c.socket.close();
      await c.closed;
      await new Promise((resolve) => setImmediate(resolve));
    }
  });

  it('answers a bad subscribe with an error event and keeps the connection', async () => {
    const c = await connect();
    for (const bad of ['nope', subscribe(5, ['doge_usdt']), subscribe(0, ['btc_usdt']), JSON.stringify({ action: 'subscribe', channels: [{ name: 'other', resolution: 1, tradingPairs: ['btc_usdt'] }] })]) {
      c.socket.send(bad);
      expect(JSON.parse(await c.next())).toMatchObject({ event: 'error' });
    }
    expect(stub.feed.subscriptions).toEqual([]);
    c.socket.close();
    await c.closed;
  });

  it('plays drop, garbage and silence on the open connections', async () => {
    const c = await connect();
    c.socket.send(subscribe(1, ['btc_usdt']));
    await subscribed(1);
    stub.feed.fault('garbage');
    const garbage = await c.next();
    expect(() => JSON.parse(garbage)).toThrow(SyntaxError);
    stub.feed.fault('silence');
    expect(stub.feed.tick()).toBe(0);
    const d = await connect();
    d.socket.send(subscribe(1, ['eth_usdt']));
    await subscribed(2);
    expect(stub.feed.tick()).toBe(1);
    stub.feed.fault('drop');
    expect(await c.closed).toBe(1006);
    expect(await d.closed).toBe(1006);
    expect(stub.feed.connectionsOpened).toBe(2);
    expect(stub.feed.upgrades).toEqual(['/', '/']);
  });
});
