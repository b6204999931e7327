/**
 * `@x/testing` in Chromium: the package's browser build (no `node:http`), its in-memory fetch driving
 * both clients with faults on demand, user-defined accounts, the live shapes, and the same answer as
 * the loopback stub that the Node side started (the page reaches it cross-origin, over CORS).
 */
import { describe, expect, inject, it } from 'vitest';
import { createNodeClient, HttpError } from '@x/node-client';
import { timestampMicros } from '@x/node-client/shapes';
import { createPriceClient } from '@x/price-client';
import { createResponseValidator } from '@x/validators';
import { createNodeStubFetch, createPriceStubFetch, DEFAULT_PRICE_NOW, startNodeStub, STUB_ACCOUNTS, StubArgumentError } from '@x/testing';

const nodeUrl = inject('nodeUrl');

describe('@x/testing in a browser', () => {
  it('the in-memory node stub answers what the loopback stub answers', async () => {
    // Seed 42, as the global setup's stub: the same chain, hashed in the browser.
    const stub = createNodeStubFetch({ seed: 42 });
    const path = `/rpc/v2/accounts/${STUB_ACCOUNTS.alice}/transactions?count=5&start=2`;
    const [inMemory, overHttp] = await Promise.all([stub(`${stub.url}${path}`), fetch(`${nodeUrl}${path}`)]);
    expect(inMemory.status).toBe(overHttp.status);
    expect(await inMemory.text()).toBe(await overHttp.text());
  });

  it('drives the node client: failNext with retries, a page walk, the live shapes under the live validator', async () => {
    const stub = createNodeStubFetch({ shapes: 'live', accounts: { carol: { transactions: [{ to: 'alice', amount: 5 }] } } });
    const node = createNodeClient({ baseUrl: stub.url, fetch: stub, validator: createResponseValidator({ strict: true }), retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 } });
    stub.failNext('getAccountV2', 502, 2);
    expect((await node.v2.getAccount(stub.accounts.carol as string)).sequence_number).toBe(1);
    const page = await node.v2.listTransactions(STUB_ACCOUNTS.exactly100, { count: 3, start: 0 });
    expect(page.record.map((tx) => typeof timestampMicros(tx.block_header!.timestamp))).toEqual(['number', 'number', 'number']);
    stub.failNext('getAccountV2', 404);
    await expect(node.v2.getAccount(STUB_ACCOUNTS.alice)).rejects.toBeInstanceOf(HttpError);
    expect(stub.requests.filter((r) => r.operationId === 'getAccountV2')).toHaveLength(4);
  });

  it('drives the price client with its key', async () => {
    const stub = createPriceStubFetch({ now: () => DEFAULT_PRICE_NOW });
    const prices = createPriceClient({ baseUrl: stub.url, apiKey: stub.apiKey, fetch: stub, retry: false });
    const candles = await prices.history({ pair: 'eth_usdt', start: stub.now() - 86_400_000, end: stub.now(), resolution: 3600 });
    expect(candles).toHaveLength(24);
    expect(stub.requests[0]?.headers['x-api-key']).toBe(stub.apiKey);
  });

  it('startNodeStub says to use the in-memory stub instead', async () => {
    await expect(startNodeStub()).rejects.toBeInstanceOf(StubArgumentError);
    await expect(startNodeStub()).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'startNodeStub' });
  });
});
