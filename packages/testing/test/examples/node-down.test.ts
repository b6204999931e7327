// fallback.test.ts
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createNodeClient } from '@x/node-client';
import { startNodeStub, type NodeStubHandle } from '@x/testing';

let down: NodeStubHandle;
let up: NodeStubHandle;
beforeAll(async () => {
  [down, up] = await Promise.all([startNodeStub(), startNodeStub()]);
  down.failNext('*', 503, Infinity); // every operation, until reset(): as `npx x-stub --fault 503`
});
afterAll(() => Promise.all([down.close(), up.close()]));

it('moves on from a node that is down', async () => {
  const node = createNodeClient({ baseUrl: [down.url, up.url] });
  const account = await node.v3.getAccount(up.accounts.alice);
  expect(account.sequence_number).toBeGreaterThan(0);
  expect(down.requests.map((r) => r.operationId)).toEqual(['getAccountV3']); // answered 503, Retry-After: 1
  expect(up.requests.map((r) => r.operationId)).toEqual(['getAccountV3']);
});
