/**
 * Pruned history is never lost silently: over a pruned fake node (`oldestBlock`) and an archive one, every
 * walk gives what the archive alone gives; over the pruned node alone it ends with `HistoryPrunedError`
 * naming the oldest block (newest first, after what the node keeps), or, with `history: 'kept'`, takes what
 * the node keeps. Single list calls expose the node's oldest block and chain id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeStub, STUB_ACCOUNTS, type NodeStubHandle } from '@x/testing';
import { createNodeClient, HistoryPrunedError, pageInfo, type NodeClient } from '@x/node-client';
import { createNodeQueries, type NodeQueries } from '@x/node-client/query';
import { QueryClient } from '@tanstack/query-core';
import { collect, expectInvalid, rejectionOf } from '@x-tools/test-helpers';

const OLDEST = 5800;
const alice = STUB_ACCOUNTS.alice;
const DEPOSIT = '0x1::coin::DepositEvent';
let pruned: NodeStubHandle;
let archive: NodeStubHandle;
// Both fakes read one fixed clock, so both have the same latest block.
const now = (): number => Date.UTC(2024, 10, 20);

beforeAll(async () => {
  [pruned, archive] = await Promise.all([startNodeStub({ oldestBlock: OLDEST, now }), startNodeStub({ now })]);
});
afterAll(() => Promise.all([pruned.close(), archive.close()]));

type Walked = (node: NodeClient, options: { history?: 'kept' }) => AsyncIterable<unknown>;
/** Every walk a user reaches for over history, with a key that tells its items apart. */
const WALKS: readonly { name: string; walk: Walked; key: (item: unknown) => unknown; newestFirst: boolean }[] = [
  { name: 'v3.transactions newest first', walk: (n, o) => n.v3.transactions(alice, { order: 'desc', ...o }), key: seq, newestFirst: true },
  { name: 'v3.transactions newest first, 4 at once', walk: (n, o) => n.v3.transactions(alice, { order: 'desc', pageSize: 20, concurrency: 4, ...o }), key: seq, newestFirst: true },
  { name: 'v3.coinTransactions', walk: (n, o) => n.v3.coinTransactions(alice, o), key: hash, newestFirst: false },
  { name: 'v3.coinTransactions newest first', walk: (n, o) => n.v3.coinTransactions(alice, { order: 'desc', ...o }), key: hash, newestFirst: true },
  { name: 'v3.events from height 0', walk: (n, o) => n.v3.events(DEPOSIT, { start_height: 0, ...o }), key: (e) => JSON.stringify(e), newestFirst: false },
];

function seq(tx: unknown): unknown {
  return (tx as { header: { sequence_number: unknown } }).header.sequence_number;
}
function hash(tx: unknown): unknown {
  return (tx as { hash: unknown }).hash;
}

describe.each(WALKS)('$name', ({ walk, key, newestFirst }) => {
  it('over a pruned node and an archive node, gives every item the archive alone gives, once and in order', async () => {
    const whole = (await collect(walk(createNodeClient({ baseUrl: archive.url }), {}))).map(key);
    expect(whole.length).toBeGreaterThan(100);
    const both = (await collect(walk(createNodeClient({ baseUrl: [pruned.url, archive.url] }), {}))).map(key);
    expect(both).toEqual(whole);
  });

  it('over the pruned node alone, ends with HistoryPrunedError naming the oldest block, never as if complete', async () => {
    const node = createNodeClient({ baseUrl: pruned.url });
    const seen: unknown[] = [];
    const err = await rejectionOf(
      (async () => {
        for await (const item of walk(node, {})) seen.push(key(item));
      })(),
    );
    expect(err).toBeInstanceOf(HistoryPrunedError);
    expect(err).toMatchObject({ code: 'HISTORY_PRUNED', oldestBlock: BigInt(OLDEST) });
    const kept = (await collect(walk(node, { history: 'kept' }))).map(key);
    // Newest first, what the node keeps comes before the error; ascending, nothing of a range with a hole at its start.
    expect(seen).toEqual(newestFirst ? kept : []);
    const whole = (await collect(walk(createNodeClient({ baseUrl: archive.url }), {}))).map(key);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(whole.length);
  });
});

describe('blocks', () => {
  const range = { start_height: OLDEST - 10, end_height: OLDEST + 10 };
  it('below the oldest block of one node, come from the archive', async () => {
    const blocks = await collect(createNodeClient({ baseUrl: [pruned.url, archive.url] }).v3.blocks({ ...range, concurrency: 4 }));
    expect(blocks.map((b) => b.header.height)).toEqual(Array.from({ length: 20 }, (_, i) => OLDEST - 10 + i));
  });

  it('from the default start over the pruned node alone: HistoryPrunedError, not a walk that starts at the oldest block', async () => {
    const err = await rejectionOf(collect(createNodeClient({ baseUrl: pruned.url }).v3.blocks({ end_height: OLDEST + 2 })));
    expect(err).toMatchObject({ code: 'HISTORY_PRUNED', oldestBlock: BigInt(OLDEST) });
  });
});

describe('single list calls', () => {
  it('expose the oldest block and the chain id of the node that answered', async () => {
    const node = createNodeClient({ baseUrl: pruned.url });
    const page = await node.v3.listTransactions(alice, { count: 5 });
    expect(pageInfo(page)).toMatchObject({ oldestBlock: BigInt(OLDEST), chainId: pruned.chainId });
    const coins = await node.v3.listCoinTransactions(alice, { count: 5 });
    expect(coins).toMatchObject({ oldestBlock: BigInt(OLDEST), chainId: pruned.chainId, cursor: expect.any(String) });
    expect(pageInfo(coins)).toMatchObject({ oldestBlock: BigInt(OLDEST), cursor: coins.cursor });
    expect(pageInfo({})).toBeUndefined();
  });
});

describe('bad input', () => {
  it.each([
    ['history', { history: 'all' }],
    ['resume', { resume: 'page 3' }],
    ['resume', { resume: 'next:desc:n5' }],
    ['resume', { resume: 'next:asc:n5', start: 5 }],
  ])('%s: %j is an InvalidArgumentError naming it, before any request', async (parameter, options) => {
    const before = archive.requests.length;
    await expectInvalid(collect(createNodeClient({ baseUrl: archive.url }).v3.transactions(alice, options as never)), parameter);
    expect(archive.requests.length).toBe(before);
  });
});

describe('infinite queries', () => {
  const itemsOf = (data: { pages: unknown[] }): unknown[] => data.pages.flatMap((p) => (Array.isArray(p) ? p : (p as { items: unknown[] }).items));
  it.each([
    ['v3.transactions newest first', (q: NodeQueries) => q.v3.transactions(alice, { order: 'desc' }), (n: NodeClient) => n.v3.transactions(alice, { order: 'desc' })],
    ['v3.coinTransactions', (q: NodeQueries) => q.v3.coinTransactions(alice), (n: NodeClient) => n.v3.coinTransactions(alice)],
    ['v3.coinTransactions newest first', (q: NodeQueries) => q.v3.coinTransactions(alice, { order: 'desc' }), (n: NodeClient) => n.v3.coinTransactions(alice, { order: 'desc' })],
  ])('%s: over a pruned and an archive node, the pages hold what the archive alone holds; over the pruned one alone, the query fails with HistoryPrunedError', async (_, query, walk) => {
    const qc = new QueryClient({ defaultOptions: { queries: { gcTime: Infinity, retry: false } } });
    const whole = await collect(walk(createNodeClient({ baseUrl: archive.url })));
    const both = await qc.fetchInfiniteQuery({ ...(query(createNodeQueries(createNodeClient({ baseUrl: [pruned.url, archive.url] }))) as object), pages: Infinity } as never);
    expect(itemsOf(both as { pages: unknown[] }).map((tx) => hash(tx))).toEqual(whole.map((tx) => hash(tx)));
    const err = await rejectionOf(qc.fetchInfiniteQuery({ ...(query(createNodeQueries(createNodeClient({ baseUrl: pruned.url }))) as object), pages: Infinity } as never));
    expect(err).toMatchObject({ code: 'HISTORY_PRUNED', oldestBlock: BigInt(OLDEST) });
    qc.clear();
  });
});
