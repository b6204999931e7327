import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createNodeClient } from '@x/node-client';
import { createPriceClient } from '@x/price-client';
import { DEFAULT_PRICE_NOW } from '@x/testing';
import { nodeHandlers, priceHandlers } from '@x/testing/msw';

// Your app's URLs: the handlers answer every request to these origins.
const node = nodeHandlers({ baseUrl: 'https://rpc.example.com', seed: 7 });
// The price clock fixed (the default is the wall clock), so that "the last 24 hours" are always the same candles.
const prices = priceHandlers({ baseUrl: 'https://prices.example.com', apiKey: 'test-key', now: () => DEFAULT_PRICE_NOW });
const server = setupServer(...node, ...prices);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  node.reset();
  prices.reset();
});
afterAll(() => server.close());

it('retries a 503, then reads the account', async () => {
  const client = createNodeClient({ baseUrl: 'https://rpc.example.com', retry: { attempts: 3, baseDelayMs: 1 } });
  node.failNext('getAccountV2', 503, 1, { retryAfter: '0' });

  const account = await client.v2.getAccount(node.accounts.exactly101);

  expect(account.sequence_number).toBe(101);
  expect(node.requests.map((r) => r.operationId)).toEqual(['getAccountV2', 'getAccountV2']);
});

it('reads candles with the key', async () => {
  const client = createPriceClient({ baseUrl: 'https://prices.example.com', apiKey: 'test-key' });
  const end = prices.now();

  const candles = await client.history({ pair: 'btc_usdt', start: end - 86_400_000, end, resolution: 3600 });

  expect(candles).toHaveLength(24);
  expect(prices.requests[0]?.headers['x-api-key']).toBe('test-key');
});

it('answers one route your own way', async () => {
  server.use(http.get(`${node.url}/rpc/v2/accounts/:address`, () => HttpResponse.json({ error: 'busy' }, { status: 500 })));
  const client = createNodeClient({ baseUrl: node.url, retry: false });

  await expect(client.v2.getAccount(node.accounts.alice)).rejects.toMatchObject({ status: 500 });
  expect(node.requests).toHaveLength(0); // the stub was not asked
});
