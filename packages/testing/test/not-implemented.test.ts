/**
 * An operation of the route table that a stub has no handler for (added to the spec before its answers
 * were written) is answered with the sample of its 200 schema that `pnpm gen` wrote, marked
 * `x-stub-sample: true`; one without a sample either is a 501 naming it: not a 404, which would read as a
 * wrong path. The generated operation tables, which the route table is read from, and the generated
 * samples are extended here with operations no handler knows, as `pnpm gen` would after a spec edit.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startNodeStub, startPriceStub, STUB_ACCOUNTS, type NodeStubHandle, type PriceStubHandle } from '../src/index.ts';
import { get } from './helpers.ts';
import type * as NodeTable from '../../common/src/generated/node-rpc.ts';
import type * as PriceTable from '../../common/src/generated/price-history.ts';
import type * as Samples from '../src/generated/samples.ts';

vi.mock('../../common/src/generated/node-rpc.ts', async (importOriginal) => {
  const generated = await importOriginal<typeof NodeTable>();
  return {
    ...generated,
    nodeRpcOperations: {
      ...generated.nodeRpcOperations,
      getBalanceV2: { method: 'GET', path: '/rpc/v2/accounts/{address}/balance', params: [] },
      getBlockV2: { method: 'GET', path: '/rpc/v2/blocks/{height}', params: [] },
      getNonceV4: { method: 'GET', path: '/rpc/v4/accounts/{address}/nonce', params: [] },
      getSupplyV4: { method: 'GET', path: '/rpc/v4/supply/{coin}', params: [] },
    },
  };
});

vi.mock('../../common/src/generated/price-history.ts', async (importOriginal) => {
  const generated = await importOriginal<typeof PriceTable>();
  const added = { getPairs: { method: 'GET', path: '/pairs', params: [] }, getVolume: { method: 'GET', path: '/volume', params: [] } };
  return { ...generated, priceHistoryOperations: { ...generated.priceHistoryOperations, ...added } };
});

// Samples of the operations a spec edit added, as `pnpm gen` writes them; getBalanceV2, getBlockV2 and getPairs have none.
vi.mock('../src/generated/samples.ts', async (importOriginal) => {
  const generated = await importOriginal<typeof Samples>();
  return {
    nodeRpcSamples: { ...generated.nodeRpcSamples, getNonceV4: { nonce: 0 }, getSupplyV4: { supply: '0' } },
    priceHistorySamples: { ...generated.priceHistorySamples, getVolume: { status: 'success', data: [] } },
  };
});

let node: NodeStubHandle;
let price: PriceStubHandle;
beforeAll(async () => {
  [node, price] = await Promise.all([startNodeStub(), startPriceStub()]);
});
afterAll(async () => {
  await Promise.all([node.close(), price.close()]);
});

describe('an operation of the route table without a handler', () => {
  it('is answered 501 over HTTP, naming the operation, and logged under its id', async () => {
    node.reset();
    const res = await get<Record<string, unknown>>(`${node.url}/rpc/v2/accounts/${STUB_ACCOUNTS.alice}/balance`);
    expect(res.status).toBe(501);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body).toEqual({
      operationId: 'getBalanceV2',
      error: 'not_implemented',
      message: 'getBalanceV2 is an operation of the spec, but this stub has no handler for it yet',
    });
    expect(node.requests.map((r) => r.operationId)).toEqual(['getBalanceV2']);
  });

  it('is a 501 before its parameters are read, with or without an address', async () => {
    expect((await get(`${node.url}/rpc/v2/accounts/not-hex/balance`)).status).toBe(501);
    const block = await get<Record<string, unknown>>(`${node.url}/rpc/v2/blocks/7`);
    expect(block.status).toBe(501);
    expect(block.body).toMatchObject({ error: 'not_implemented', operationId: 'getBlockV2' });
  });

  it('names the operation in the live shape too', async () => {
    const res = await get<Record<string, unknown>>(`${node.url}/rpc/v2/accounts/0x1/balance`, { 'x-stub-shapes': 'live' });
    expect(res.status).toBe(501);
    expect(res.body).toEqual({ message: 'getBalanceV2 is an operation of the spec, but this stub has no handler for it yet' });
  });

  it('takes faults like any operation of the table', async () => {
    node.failNext('getBalanceV2' as never, 503);
    expect((await get(`${node.url}/rpc/v2/accounts/0x1/balance`)).status).toBe(503);
    expect((await get(`${node.url}/rpc/v2/accounts/0x1/balance`)).status).toBe(501);
  });

  it('on the price stub too, in its error shape', async () => {
    const res = await get<Record<string, unknown>>(`${price.url}/pairs`);
    expect(res.status).toBe(501);
    expect(res.body).toMatchObject({ status: 'error', error: 'not_implemented', operationId: 'getPairs' });
  });

  it('leaves the handled operations and the unknown paths as they were', async () => {
    expect((await get(`${node.url}/rpc/v2/accounts/0x1`)).headers.get('x-stub-sample')).toBeNull();
    expect((await get(`${node.url}/rpc/v2/accounts/0x1`)).status).toBe(200);
    expect((await get(`${node.url}/rpc/v2/accounts/0x1/nope`)).status).toBe(404);
    expect((await get(`${price.url}/latest`)).status).toBe(200);
    expect((await get(`${price.url}/nope`)).status).toBe(404);
  });
});

describe('an operation of the route table without a handler, with a generated sample', () => {
  it('is answered 200 with the sample, marked x-stub-sample, and logged under its id', async () => {
    node.reset();
    const res = await get<Record<string, unknown>>(`${node.url}/rpc/v4/accounts/${STUB_ACCOUNTS.alice}/nonce`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-stub-sample')).toBe('true');
    // A browser may read the mark (the stubs speak CORS).
    expect(res.headers.get('access-control-expose-headers')).toContain('x-stub-sample');
    expect(res.body).toEqual({ nonce: 0 });
    // An answer of v3 and later names its chain, the sample's too.
    expect(res.headers.get('x-supra-chain-id')).toBe(String(node.chainId));
    expect(node.requests.map((r) => r.operationId)).toEqual(['getNonceV4']);
  });

  it('is the sample before its parameters are read, with or without an address, in either shape', async () => {
    const bad = await get<Record<string, unknown>>(`${node.url}/rpc/v4/accounts/not-hex/nonce`);
    expect([bad.status, bad.body, bad.headers.get('x-stub-sample')]).toEqual([200, { nonce: 0 }, 'true']);
    const supply = await get<Record<string, unknown>>(`${node.url}/rpc/v4/supply/anything`, { 'x-stub-shapes': 'live' });
    expect([supply.status, supply.body, supply.headers.get('x-stub-sample')]).toEqual([200, { supply: '0' }, 'true']);
  });

  it('takes faults like any operation of the table', async () => {
    node.failNext('getSupplyV4' as never, 503);
    expect((await get(`${node.url}/rpc/v4/supply/x`)).status).toBe(503);
    expect((await get(`${node.url}/rpc/v4/supply/x`)).status).toBe(200);
  });

  it('on the price stub too', async () => {
    const res = await get<Record<string, unknown>>(`${price.url}/volume`);
    expect([res.status, res.body, res.headers.get('x-stub-sample')]).toEqual([200, { status: 'success', data: [] }, 'true']);
  });
});
