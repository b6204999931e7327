/**
 * The client against a node that answers in the live shapes (what real nodes send: hex v1 cursors,
 * `{ microseconds_since_unix_epoch, utc_date_time }` timestamps, `{ Move }` senders, module ABIs as
 * arrays, bare v1 resource values, `{ message }` errors), with the live validator injected (strict):
 * every operation and every iterator of both versions, to the end of each listing, as on the
 * documented stub.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeClient, HttpError, type NodeClient } from '@x/node-client';
import { senderAddress, timestampMicros } from '@x/node-client/shapes';
import { createResponseValidator } from '@x/validators';
import { startNodeStub, STUB_ACCOUNTS, STUB_ACCOUNT_FACTS, PUBLISHER_MODULES, type NodeStubHandle } from '@x/testing';

const PUB = STUB_ACCOUNTS.publisher;
let stub: NodeStubHandle;
let node: NodeClient;
beforeAll(async () => {
  stub = await startNodeStub({ seed: 11, shapes: 'live' });
  node = createNodeClient({ baseUrl: stub.url, validator: createResponseValidator({ strict: true }), retry: false });
});
afterAll(() => stub.close());

const collect = async (it: AsyncIterable<unknown>): Promise<unknown[]> => {
  const out: unknown[] = [];
  for await (const x of it) out.push(x);
  return out;
};

describe.each(['v1', 'v2'] as const)('%s against live shapes', (v) => {
  it('walks every module and resource to the end (v1 cursors are hex strings here)', async () => {
    const modules = await collect(node[v].modules(PUB, { pageSize: 7 }));
    expect(modules).toHaveLength(PUBLISHER_MODULES.length);
    const resources = await collect(node[v].resources(PUB, { pageSize: 5 }));
    expect(resources).toHaveLength(STUB_ACCOUNT_FACTS.publisher.resources);
  });

  it('walks every transaction, with timestamps and senders read through the shapes helpers', async () => {
    let n = 0;
    for await (const tx of node[v].transactions(STUB_ACCOUNTS.exactly101, { start: 0, pageSize: 40 })) {
      n++;
      expect(senderAddress(tx.header.sender)).toBe(STUB_ACCOUNTS.exactly101);
      expect(timestampMicros(tx.block_header!.timestamp)).toBeGreaterThan(1_700_000_000_000_000);
    }
    expect(n).toBe(101);
    const coin = await collect(node[v].coinTransactions(STUB_ACCOUNTS.exactly100, { start: 0, pageSize: 30 }));
    expect(coin).toHaveLength(100);
  });

  it('reads a module and a resource', async () => {
    const module = await node[v].getModule(PUB, 'counter');
    expect(module).not.toBeNull();
    const resource = await node[v].getResource(STUB_ACCOUNTS.alice, '0x1::account::Account');
    expect(resource).not.toBeNull();
  });
});

it('an error body { message } ends the HttpError message', async () => {
  const err = await node.v2.getAccount(STUB_ACCOUNTS.unknown).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(HttpError);
  expect((err as HttpError).body).toEqual({ message: `account ${STUB_ACCOUNTS.unknown} not found` });
  expect((err as HttpError).message).toContain(`account ${STUB_ACCOUNTS.unknown} not found`);
});
