// account.test.ts
import { describe, expect, it } from 'vitest';
import { createNodeClient, HttpError } from '@x/node-client';
import { createNodeStubFetch, STUB_ACCOUNTS } from '@x/testing';

describe('reading an account', () => {
  it('retries a 503, then reads the account', async () => {
    const stub = createNodeStubFetch();
    const node = createNodeClient({ baseUrl: stub.url, fetch: stub, retry: { attempts: 3, baseDelayMs: 1 } });
    stub.failNext('getAccountV2', 503, 1, { retryAfter: '0' });

    const account = await node.v2.getAccount(STUB_ACCOUNTS.exactly101);

    expect(account.sequence_number).toBe(101);
    expect(stub.requests.map((r) => r.operationId)).toEqual(['getAccountV2', 'getAccountV2']);
  });

  it('does not retry a 404', async () => {
    const stub = createNodeStubFetch();
    const node = createNodeClient({ baseUrl: stub.url, fetch: stub });
    stub.failNext('getAccountV2', 404);

    await expect(node.v2.getAccount(STUB_ACCOUNTS.alice)).rejects.toBeInstanceOf(HttpError);
    expect(stub.requests).toHaveLength(1);
  });

  it('walks every transaction of an account of its own', async () => {
    const stub = createNodeStubFetch({ accounts: { carol: { transactions: [{ to: 'alice' }, { to: 'bob' }] } } });
    const node = createNodeClient({ baseUrl: stub.url, fetch: stub });
    const statuses: string[] = [];
    for await (const tx of node.v2.transactions(stub.accounts.carol!)) statuses.push(tx.status);
    expect(statuses).toEqual(['Success', 'Success']);
  });
});
