/**
 * The headers as the node's served document declares them: v2's account reads carry `x-supra-chain-id`
 * (the fake node sends it, as the spec's `ChainId` header decides), so a client given another `chainId`
 * refuses them and a v2 page's `pageInfo` names its chain; v1's account reads, which the served document
 * does not describe, carry none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainIdMismatchError, createNodeClient, pageInfo } from '@x/node-client';
import { STUB_ACCOUNTS, startNodeStub, type NodeStubHandle } from '@x/testing';
import { rejectionOf } from '@x-tools/test-helpers';

let stub: NodeStubHandle;
beforeAll(async () => {
  stub = await startNodeStub({ seed: 3, chainId: 6 });
});
afterAll(() => stub.close());

describe('x-supra-chain-id on the v2 account reads', () => {
  it('refuses a v2 account of another chain than the client’s', async () => {
    const node = createNodeClient({ baseUrl: stub.url, chainId: 8, retry: false });
    const err = await rejectionOf(node.v2.getAccount(STUB_ACCOUNTS.alice));
    expect(err).toBeInstanceOf(ChainIdMismatchError);
    expect(err).toMatchObject({ code: 'CHAIN_ID_MISMATCH', expected: 8, received: 6 });
    await expect(createNodeClient({ baseUrl: stub.url, chainId: 6 }).v2.getAccount(STUB_ACCOUNTS.alice)).resolves.toHaveProperty('sequence_number');
    // v1's account reads, which the served document does not describe, carry no chain: taken as they are.
    await expect(node.v1.getAccount(STUB_ACCOUNTS.alice)).resolves.toBeTruthy();
  });

  it('names the chain in a v2 page’s pageInfo', async () => {
    const page = await createNodeClient({ baseUrl: stub.url }).v2.listTransactions(STUB_ACCOUNTS.alice, { count: 2 });
    expect(pageInfo(page)?.chainId).toBe(6);
  });
});
