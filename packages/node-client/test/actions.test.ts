/**
 * The generated actions and walks over the two transports, against the node stub over HTTP: each action
 * answers what the client's method answers, a walk what the client's iterator yields; `http()` is one
 * node and refuses the router's options, `fallback()` moves a call past a dead node.
 */
import { describe, expect, it } from 'vitest';
import {
  createNodeClient,
  fallback,
  getAccountV2,
  getModuleV2,
  getResourceV1,
  getResourceV2,
  http,
  InvalidArgumentError,
  listModulesV1,
  listTransactionsV2,
  walkCoinTransactionsV2,
  walkTransactionsV2,
} from '@x/node-client';
import { STUB_ACCOUNTS } from '@x/testing';
import { collect, expectInvalid, rejectionOf, useNodeStub } from '@x-tools/test-helpers';

const ctx = useNodeStub();
const A = STUB_ACCOUNTS;
/** A port nothing listens on: connections are refused at once. */
const DEAD = 'http://127.0.0.1:9';

describe('actions answer what the client methods answer', () => {
  it.each([
    ['getAccountV2', () => getAccountV2(http({ baseUrl: ctx.stub.url }), A.alice), () => createNodeClient({ baseUrl: ctx.stub.url }).v2.getAccount(A.alice)],
    ['listTransactionsV2', () => listTransactionsV2(http({ baseUrl: ctx.stub.url }), A.alice, { count: 3, start: 1n }), () => createNodeClient({ baseUrl: ctx.stub.url }).v2.listTransactions(A.alice, { count: 3, start: 1n })],
    ['getModuleV2', () => getModuleV2(http({ baseUrl: ctx.stub.url }), '0x1', 'coin'), () => createNodeClient({ baseUrl: ctx.stub.url }).v2.getModule('0x1', 'coin')],
    ['getResourceV2', () => getResourceV2(http({ baseUrl: ctx.stub.url }), '1', '0x1::account::Account'), () => createNodeClient({ baseUrl: ctx.stub.url }).v2.getResource('0x1', '0x1::account::Account')],
    ['getResourceV1', () => getResourceV1(http({ baseUrl: ctx.stub.url }), '0x1', '0x1::account::Account'), () => createNodeClient({ baseUrl: ctx.stub.url }).v1.getResource('0x1', '0x1::account::Account')],
    ['listModulesV1 from a byte cursor', () => listModulesV1(http({ baseUrl: ctx.stub.url }), '0x1', { count: 2, start: [] }), () => createNodeClient({ baseUrl: ctx.stub.url }).v1.listModules('0x1', { count: 2, start: '' })],
  ])('%s', async (_, action, method) => {
    expect(await action()).toEqual(await method());
  });

  it('the client’s own transport runs any action, on the client’s node', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    expect(node.transport.baseUrls).toEqual([ctx.stub.url.replace(/\/+$/, '')]);
    expect(await getAccountV2(node.transport, A.alice)).toEqual(await node.v2.getAccount(A.alice));
  });
});

describe('walks are functions', () => {
  it('walkTransactionsV2 yields what node.v2.transactions yields, both orders, concurrently', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    const t = http({ baseUrl: ctx.stub.url });
    expect(await collect(walkTransactionsV2(t, A.busy, { concurrency: 4, limit: 250 }))).toEqual(await collect(node.v2.transactions(A.busy, { limit: 250 })));
    expect(await collect(walkTransactionsV2(t, A.busy, { order: 'desc', concurrency: 4, limit: 120 }))).toEqual(await collect(node.v2.transactions(A.busy, { order: 'desc', limit: 120 })));
  });

  it('a cursor walk, and a bad option rejects the first next() naming it, before any request', async () => {
    const t = http({ baseUrl: ctx.stub.url });
    expect(await collect(walkCoinTransactionsV2(t, A.bob))).toEqual(await collect(createNodeClient({ baseUrl: ctx.stub.url }).v2.coinTransactions(A.bob)));
    const before = ctx.stub.requests.length;
    await expectInvalid(walkTransactionsV2(t, A.bob, { pageSize: 0 }).next(), 'pageSize');
    expect(ctx.stub.requests.length).toBe(before);
  });
});

describe('transports', () => {
  it.each(['rateLimit', 'hedgeAfterMs', 'onAttempt'] as const)('http() refuses %s: that is fallback()', (option) => {
    const value = option === 'rateLimit' ? { requestsPerSecond: 1 } : option === 'hedgeAfterMs' ? 100 : () => {};
    const err = (() => {
      try {
        http({ baseUrl: ctx.stub.url, [option]: value } as Parameters<typeof http>[0]);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: option });
  });

  it('http() refuses a list of URLs, naming baseUrl', () => {
    expect(() => http({ baseUrl: [ctx.stub.url] as unknown as string })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', parameter: 'baseUrl' }));
  });

  it('fallback() moves a call past a node that refuses connections; http() on that node fails with a NetworkError', async () => {
    expect(await getAccountV2(fallback({ baseUrl: [DEAD, ctx.stub.url], retry: false }), A.alice)).toMatchObject({ sequence_number: expect.anything() });
    expect(await rejectionOf(getAccountV2(http({ baseUrl: DEAD, retry: false }), A.alice))).toMatchObject({ name: 'NetworkError', code: 'NETWORK_ERROR' });
  });

  it('a bad argument of an action rejects with InvalidArgumentError naming it, before any request', async () => {
    const before = ctx.stub.requests.length;
    await expectInvalid(listTransactionsV2(http({ baseUrl: ctx.stub.url }), A.alice, { count: 101 }), 'count');
    await expectInvalid(listModulesV1(http({ baseUrl: ctx.stub.url }), '0x1', { start: [256] }), 'start');
    await expectInvalid(getAccountV2(http({ baseUrl: ctx.stub.url }), 'not an address'), 'address');
    // In words, not the pattern (issue 37.7).
    expect(await rejectionOf(getAccountV2(http({ baseUrl: ctx.stub.url }), 'xyz'))).toMatchObject({
      message: "Invalid argument 'address': expected account address with or without a `0x` prefix (1 to 64 hex digits), got \"xyz\"",
    });
    expect(ctx.stub.requests.length).toBe(before);
  });
});
