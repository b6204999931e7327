import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createNodeClient } from '@x/node-client';
import { startNodeStub, type NodeStubHandle } from '@x/testing';

let stub: NodeStubHandle;
beforeAll(async () => {
  stub = await startNodeStub({ seed: 7 });
});
afterEach(() => stub.reset());
afterAll(() => stub.close());

it('pages through coin transactions', async () => {
  const node = createNodeClient({ baseUrl: stub.url });
  const page = await node.v2.listCoinTransactions(stub.accounts.alice, { count: 5 });
  expect(page.record).toHaveLength(5);
  expect(stub.requests[0]?.operationId).toBe('listCoinTransactionsV2');
  expect(stub.requests[0]?.url).toContain('count=5');
});
