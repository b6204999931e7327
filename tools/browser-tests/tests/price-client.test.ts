/**
 * The price client in Chromium, cross-origin: the key as a header (so every keyed request is
 * preflighted), history, historyRange and latest, and keyed redirects, which a browser hides from
 * scripts (`redirect: 'manual'` gives an opaque redirect): refused, with no second request.
 */
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { commands } from 'vitest/browser';
import { createPriceClient, explain, HttpError, InvalidArgumentError, NetworkError, type PriceClientOptions } from '@x/price-client';
import { createResponseValidator } from '@x/validators';
import { rejection } from './helpers.ts';

const priceUrl = inject('priceUrl');
const nodeUrl = inject('nodeUrl');
const KEY = inject('priceKey');
/** The price stub's clock, fixed by global-setup (`now: () => DEFAULT_PRICE_NOW`, 2024-11-20T00:00:00Z). */
const NOW = Date.UTC(2024, 10, 20);
const DAY = 86_400_000;
const q = { pair: 'btc_usdt', start: NOW - DAY, end: NOW, resolution: 3600 };

const client = (options: PriceClientOptions = {}) =>
  createPriceClient({ baseUrl: priceUrl, apiKey: KEY, retry: false, validator: createResponseValidator({ strict: true }), ...options });

type Seen = { method: string; url: string; headers: Record<string, string | string[] | undefined> };
const seen = (name: 'node' | 'price'): Promise<Seen[]> => commands.stubRequests(name);
const gets = async (name: 'node' | 'price' = 'price'): Promise<Seen[]> => (await seen(name)).filter((r) => r.method === 'GET');

beforeEach(async () => {
  await commands.resetStub('price');
  await commands.resetStub('node');
});

describe('with a key', () => {
  it('history: the candles, the key as a header, after a preflight that asked for it', async () => {
    const candles = await client().history(q);
    expect(candles).toHaveLength(24);
    expect(candles.map((c) => c.timestamp)).toEqual(Array.from({ length: 24 }, (_, i) => NOW - DAY + i * 3_600_000));
    const [preflight, get] = await seen('price');
    expect(preflight).toMatchObject({ method: 'OPTIONS', headers: { 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' } });
    expect(get).toMatchObject({ method: 'GET', headers: { 'x-api-key': KEY } });
    expect(get!.url).not.toContain(KEY);
  });

  it('historyRange: three days of minutes in windows of 500, in order, no duplicates', async () => {
    const start = NOW - 3 * DAY;
    const timestamps: number[] = [];
    for await (const c of client().historyRange({ pair: 'eth_usdt', start, end: NOW - 1, resolution: 60, windowCandles: 500 })) timestamps.push(c.timestamp);
    expect(timestamps).toEqual(Array.from({ length: 3 * 1440 }, (_, i) => start + i * 60_000));
    expect(await gets()).toHaveLength(Math.ceil((3 * 1440) / 500));
  });

  it('latest is keyed and preflighted too', async () => {
    const body = await client().latest({ pair: 'btc_usdt' });
    expect(body.instruments).toHaveLength(1);
    expect((await seen('price')).map((r) => r.method)).toEqual(['OPTIONS', 'GET']);
    expect((await gets())[0]!.headers['x-api-key']).toBe(KEY);
  });

  it('a wrong key is an HttpError 403 that does not show the key', async () => {
    const err = await rejection(client({ apiKey: 'wrong-key-123' }).history(q));
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ name: 'HttpError', code: 'HTTP_ERROR', status: 403, body: { error: 'invalid_api_key' } });
    expect(JSON.stringify(err) + String(err)).not.toContain('wrong-key-123');
  });
});

describe('without a key', () => {
  it('latest works, as a simple request without a preflight', async () => {
    const body = await createPriceClient({ baseUrl: priceUrl, retry: false }).latest();
    expect(body.instruments.length).toBe(4);
    expect((await seen('price')).map((r) => r.method)).toEqual(['GET']);
    expect((await gets())[0]!.headers['x-api-key']).toBeUndefined();
  });

  it("a script of another origin reads the stub's clock (x-stub-clock is exposed)", async () => {
    const res = await fetch(`${priceUrl}/latest?trading_pair=btc_usdt`);
    expect(res.headers.get('x-stub-clock')).toBe(new Date(NOW).toISOString());
  });

  it('history and historyRange refuse before any request', async () => {
    const prices = createPriceClient({ baseUrl: priceUrl });
    expect(await rejection(prices.history(q))).toMatchObject({ name: 'InvalidArgumentError', code: 'INVALID_ARGUMENT', parameter: 'apiKey' });
    const err = await rejection((async () => {
      for await (const _ of prices.historyRange(q));
    })());
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(await seen('price')).toEqual([]);
  });
});

describe('keyed redirects (hidden from scripts in a browser)', () => {
  it.each([
    ['under the base URL', 307, '{url}&moved=1'],
    ['a 301 under the base URL', 301, '{url}&moved=1'],
    ['to another origin', 302, `${nodeUrl}/history`],
    ['to a place that cannot be reached', 308, 'http://127.0.0.1:9/history'],
  ])('%s: refused (finding where it leads would take a second request), with a NetworkError explain() explains', async (_, status, to) => {
    await commands.failNext('price', 'getHistory', status, 1, { redirectTo: to });
    const err = await rejection(client().history(q));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toContain('opaque redirect');
    expect((err as Error).message).not.toContain(KEY);
    expect(explain(err)).toContain('Point `baseUrl` where the service moved');
    for (const r of await seen('node')) expect(JSON.stringify(r)).not.toContain(KEY);
    expect((await gets()).map((r) => r.headers['x-api-key'])).toEqual([KEY]);
  });
});
