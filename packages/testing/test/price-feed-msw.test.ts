/**
 * The candle feed as MSW handlers (`priceFeedHandlers`): MSW intercepts the runtime's global `WebSocket`.
 * Node 20 has none, so this file lends it `ws`'s for MSW to wrap (Node 22 and browsers have their own).
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { DEFAULT_PRICE_NOW, PRICE_FEED_CHANNEL, StubArgumentError } from '../src/index.ts';
import { priceFeedHandlers } from '../src/msw.ts';

const hadGlobal = 'WebSocket' in globalThis;
if (!hadGlobal) Object.defineProperty(globalThis, 'WebSocket', { value: NodeWebSocket, configurable: true, writable: true });
let clock = DEFAULT_PRICE_NOW;
const feed = priceFeedHandlers({ seed: 7, now: () => clock, feedTickMs: 0, webSocketUrl: 'wss://prices.example.test/feed' });
const server = setupServer(...feed);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => {
  server.close();
  if (!hadGlobal) delete (globalThis as { WebSocket?: unknown }).WebSocket;
});

it('serves the feed to the global WebSocket: subscribe, ticks, garbage and drop', async () => {
  const socket = new globalThis.WebSocket(feed.webSocketUrl);
  const frames: string[] = [];
  let wake = (): void => undefined;
  socket.addEventListener('message', (event: MessageEvent) => {
    frames.push(String(event.data));
    wake();
  });
  const next = async (): Promise<string> => {
    while (frames.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return frames.shift()!;
  };
  await new Promise((resolve) => socket.addEventListener('open', resolve));
  socket.send(JSON.stringify({ action: 'subscribe', channels: [{ name: PRICE_FEED_CHANNEL, resolution: 1, dataPairs: ['btc_usdt'] }] }));
  while (feed.feed.subscriptions.length === 0) await new Promise((resolve) => setImmediate(resolve));
  clock += 30_000;
  expect(feed.feed.tick()).toBe(1);
  expect(JSON.parse(await next())).toMatchObject({ event: PRICE_FEED_CHANNEL, payload: [{ tradingPair: 'btc_usdt', resolution: 1, time: clock }] });
  feed.feed.fault('garbage');
  const garbage = await next();
  expect(() => JSON.parse(garbage)).toThrow(SyntaxError);
  const closed = new Promise<number>((resolve) => socket.addEventListener('close', (event: CloseEvent) => resolve(event.code)));
  feed.feed.fault('drop');
  expect(await closed).toBe(1006);
  expect(feed.feed.upgrades).toEqual(['/feed']);
});

it('logs an upgrade with its path and query', async () => {
  feed.feed.reset();
  const socket = new globalThis.WebSocket(`${feed.webSocketUrl}?client=test&v=2`);
  await new Promise((resolve) => socket.addEventListener('open', resolve));
  expect(feed.feed.upgrades).toEqual(['/feed?client=test&v=2']);
  socket.close();
});

it('refuses a webSocketUrl that is not ws: or wss:', () => {
  expect(() => priceFeedHandlers({ webSocketUrl: 'https://prices.example.test' })).toThrow(StubArgumentError);
});
