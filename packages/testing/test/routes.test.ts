/**
 * One route table: `matchRoute` of `@x/common` names the operation of a path for the stubs' request log
 * and `failNext`, and routes both stubs, whose handlers are keyed by operation id. Coverage comes from the
 * table too: every operation of it is answered, by its handler or, until one is written, by the generated
 * sample of its 200 schema (`x-stub-sample: true`, see not-implemented.test.ts), which is reported here.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { routes } from '@x/common';
import { createNodeStubFetch, createPriceStubFetch, STUB_ACCOUNTS, type NodeOperationId } from '@x/testing';

const sample: Record<string, string> = { address: '0x1', module_name: 'coin', resource_type: '0x1::account::Account', height: '1', event_type: '0x1::coin::WithdrawEvent' };
/** The body of each POST operation, as a client sends it (a table item's handle has no sample: it may be refused, never a 501). */
const bodies: Record<string, unknown> = {
  viewV3: { function: '0x1::chain_id::get', type_arguments: [], arguments: [] },
  getTableItemV2: { key_type: 'address', value_type: '0x1::string::String', key: '0x1' },
};
const fill = (path: string, encode = (s: string) => encodeURIComponent(s)): string => path.replace(/\{(\w+)\}/g, (_m, name: string) => encode(sample[name] ?? '1'));
const sampled = (path: string): boolean => [...path.matchAll(/\{(\w+)\}/g)].every((m) => m[1]! in sample);

describe('the stubs route by it', () => {
  it('every node operation is answered by its own handler, or by its generated sample until it has one, and logged under its id', async () => {
    const stub = createNodeStubFetch();
    const ids = routes.filter((r) => r.service === 'node-rpc').map((r) => r.operationId);
    expect(stub.requests).toEqual([]);
    const bySample: string[] = [];
    for (const id of ids) {
      const route = routes.find((r) => r.operationId === id)!;
      const init: RequestInit = route.method === 'POST' ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(bodies[id]) } : {};
      const res = await stub(stub.url + fill(route.path, (s) => encodeURIComponent(s === '0x1' ? STUB_ACCOUNTS.framework : s)), init);
      expect(res.status, id).not.toBe(501);
      if (res.headers.get('x-stub-sample') === 'true') bySample.push(id);
      // A parameter this test has no sample for (a new operation's handler's) may be refused; a sample never is.
      if (sampled(route.path) || bySample.includes(id)) expect(res.status, id).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
    }
    expect(stub.requests.map((r) => r.operationId)).toEqual(ids);
    // Not a failure: an operation added to the spec is answered by its sample until its handler is written.
    if (bySample.length > 0) console.warn(`the node stub has no handler yet for ${bySample.join(', ')}: answered by the generated sample`);
  });

  it('every price operation is answered (by its handler or its sample, never a 501) and is logged under its id', async () => {
    const stub = createPriceStubFetch();
    const ids = routes.filter((r) => r.service === 'price-history').map((r) => r.operationId);
    for (const id of ids) {
      const route = routes.find((r) => r.operationId === id)!;
      const res = await stub(stub.url + fill(route.path), { headers: { 'x-api-key': stub.apiKey } });
      expect(res.status, id).not.toBe(501);
      if (res.headers.get('x-stub-sample') === 'true') console.warn(`the price stub has no handler yet for ${id}: answered by the generated sample`);
    }
    expect(stub.requests.map((r) => r.operationId)).toEqual(ids);
  });

  it('failNext reaches a request by its matched operation, whatever its spelling', async () => {
    const stub = createNodeStubFetch();
    stub.failNext('listTransactionsV2', 503);
    expect((await stub(`${stub.url}/rpc/v2/accounts/0x1/%74ransactions`)).status).toBe(503);
    expect((await stub(`${stub.url}/rpc/v2/accounts/0x1/transactions`)).status).toBe(200);
  });

  it('a path no route names is a 404, and an empty address the bad address it is', async () => {
    const stub = createNodeStubFetch();
    expect((await stub(`${stub.url}/rpc/v2/accounts/0x1/nope`)).status).toBe(404);
    expect(await (await stub(`${stub.url}/rpc/v2/accounts//transactions`)).json()).toMatchObject({ error: 'invalid_address' });
    expect(stub.requests.map((r) => r.operationId)).toEqual([undefined, undefined]);
  });

  it('the price stub logs its operations by the same matcher', async () => {
    const stub = createPriceStubFetch();
    await stub(`${stub.url}/latest?trading_pair=btc_usdt`);
    expect(stub.requests[0]?.operationId).toBe('getLatest');
    // Its router too: a segment is compared decoded, and a path no route names is a 404.
    expect((await stub(`${stub.url}/%6catest?trading_pair=btc_usdt`)).status).toBe(200);
    expect((await stub(`${stub.url}/latest/x`)).status).toBe(404);
    expect(stub.requests.map((r) => r.operationId)).toEqual(['getLatest', 'getLatest', undefined]);
  });

  it('NodeOperationId is the spec’s node operations, the keys of the handlers', () => {
    expectTypeOf<'getAccountV1' | 'listResourcesV2'>().toMatchTypeOf<NodeOperationId>();
    expectTypeOf<'getHistory'>().not.toMatchTypeOf<NodeOperationId>();
  });
});
