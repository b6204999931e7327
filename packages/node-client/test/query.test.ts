/**
 * `@x/node-client/query` run by a real `QueryClient` of `@tanstack/query-core`, over real HTTP against
 * the node stub: every operation's query gives what the client call gives; every infinite query, page
 * after page to its end, gives the items of the iterator and asks for the same starts; cancelling a
 * query aborts its request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CancelledError, dehydrate, hydrate, InfiniteQueryObserver, QueryClient, type InfiniteData } from '@tanstack/query-core';
import { createNodeClient, InvalidArgumentError, ResponseShapeError, type NodeClient } from '@x/node-client';
import { createNodeQueries, type NodeInfiniteQueryKey, type NodeInfiniteQueryOptions, type NodeQueryOptions, type PageParam } from '@x/node-client/query';
import { PUBLISHER_MODULES, STUB_ACCOUNTS } from '@x/testing';
import { startSilentServer } from '@x-tools/scripted-server';
import { collect, expectInvalid, rejectionOf, useNodeStub } from '@x-tools/test-helpers';
import { expectSameJson, json, queryOf, startBadServer } from './helpers.ts';

const ctx = useNodeStub();
const clients: QueryClient[] = [];
/** A QueryClient that schedules no garbage collection (no timer outlives the file) and retries nothing, cleared after each test. */
function queryClient(): QueryClient {
  const qc = new QueryClient({ defaultOptions: { queries: { gcTime: Infinity, retry: false } } });
  clients.push(qc);
  return qc;
}
afterEach(() => {
  for (const qc of clients.splice(0)) qc.clear();
});
const setup = (node: NodeClient = createNodeClient({ baseUrl: ctx.stub.url })) => ({ node, queries: createNodeQueries(node), qc: queryClient() });

const VERSIONS = ['v1', 'v2'] as const;
const A = STUB_ACCOUNTS;

describe('fetchQuery of every operation equals the client call', () => {
  type Case = [string, (q: ReturnType<typeof createNodeQueries>['v2'], n: NodeClient['v2']) => [unknown, Promise<unknown>]];
  const cases = (v: 'v1' | 'v2'): Case[] => [
    ['getAccount', (q, n) => [q.getAccount(A.alice), n.getAccount(A.alice)]],
    ['getAccount (framework, short address)', (q, n) => [q.getAccount('1'), n.getAccount('0x1')]],
    ['listTransactions from a start', (q, n) => [q.listTransactions(A.alice, { count: 5, start: 3 }), n.listTransactions(A.alice, { count: 5, start: 3 })]],
    ['listTransactions, a bigint start', (q, n) => [q.listTransactions(A.busy, { count: 2, start: 2_000n }), n.listTransactions(A.busy, { count: 2, start: 2_000n })]],
    ['listTransactions, newest page', (q, n) => [q.listTransactions(A.busy, { count: 3 }), n.listTransactions(A.busy, { count: 3 })]],
    ['listCoinTransactions', (q, n) => [q.listCoinTransactions(A.bob, { count: 4 }), n.listCoinTransactions(A.bob, { count: 4 })]],
    ['listCoinTransactions from a start', (q, n) => [q.listCoinTransactions(A.bob, { count: 4, start: 0 }), n.listCoinTransactions(A.bob, { count: 4, start: 0 })]],
    ['listModules', (q, n) => [q.listModules(A.publisher, { count: 3 }), n.listModules(A.publisher, { count: 3 })]],
    ['getModule', (q, n) => [q.getModule(A.publisher, PUBLISHER_MODULES[0]!), n.getModule(A.publisher, PUBLISHER_MODULES[0]!)]],
    ['listResources', (q, n) => [q.listResources(A.publisher, { count: 4 }), n.listResources(A.publisher, { count: 4 })]],
    ['getResource', (q, n) => [q.getResource('0x1', '0x1::account::Account'), n.getResource('0x1', '0x1::account::Account')]],
    ...(v === 'v1' ? ([['getAccount of an unknown account (v1: null)', (q, n) => [q.getAccount(A.unknown), n.getAccount(A.unknown)]]] as Case[]) : []),
  ];
  for (const v of VERSIONS) {
    for (const [name, make] of cases(v)) {
      it(`${v}.${name}`, async () => {
        const { node, queries, qc } = setup();
        const [options, direct] = make(queries[v] as ReturnType<typeof createNodeQueries>['v2'], node[v] as NodeClient['v2']);
        const expected = await direct;
        const got = await qc.fetchQuery(options as Parameters<QueryClient['fetchQuery']>[0]);
        expect(got).toEqual(expected);
        expect(expected).not.toBeUndefined();
      });
    }

    it(`${v}: a list query from a cursor the previous page gave (v1: its u8 array) equals the client call`, async () => {
      const { node, queries, qc } = setup();
      const first = (await node[v].listResources(A.publisher, { count: 5 })) as { cursor?: string; Resources?: { cursor: string | number[] } };
      const cursor = (v === 'v1' ? first.Resources!.cursor : first.cursor) as string;
      const options = queries[v].listResources(A.publisher, { count: 5, start: cursor }) as NodeQueryOptions<unknown>;
      expect(await qc.fetchQuery(options)).toEqual(await node[v].listResources(A.publisher, { count: 5, start: cursor }));
    });
  }

  it('an error is the client error of the call: v2 answers 404 for an unknown account', async () => {
    const { queries, qc } = setup();
    const err = await rejectionOf(qc.fetchQuery(queries.v2.getAccount(A.unknown)));
    expect(err).toMatchObject({ code: 'HTTP_ERROR', status: 404 });
  });

  it('a bad argument is the InvalidArgumentError of the call, sent nowhere', async () => {
    const { queries, qc } = setup();
    await expectInvalid(qc.fetchQuery(queries.v2.getAccount('0xnot-hex')), 'address');
    await expectInvalid(qc.fetchQuery(queries.v2.listTransactions('0x1', { count: 101 })), 'count');
    expect(ctx.stub.requests).toEqual([]);
  });
});

/** The items of a page, read independently of the paging table: where each listing keeps them. */
const ITEMS: Record<string, (page: never) => unknown[]> = {
  transactions: (page: { record: unknown[] }) => page.record,
  coinTransactions: (page: { record: unknown[] }) => page.record,
  'v1.modules': (page: { Modules: { modules: unknown[] } } | null) => page?.Modules.modules ?? [],
  'v1.resources': (page: { Resources: { resource: unknown[] } } | null) => page?.Resources.resource ?? [],
  'v2.modules': (page: { modules: unknown[] }) => page.modules,
  'v2.resources': (page: { resources: unknown[] }) => page.resources,
};
const itemsOf = (v: string, listing: string, data: InfiniteData<unknown, PageParam>): unknown[] =>
  data.pages.flatMap((page) => (ITEMS[listing] ?? ITEMS[`${v}.${listing}`]!)(page as never));
/** Options of a version and listing picked at run time, as one type (the types of each are checked in query.test-d.ts). */
const infinite = (options: unknown) => options as NodeInfiniteQueryOptions<unknown>;
const starts = (): (string | null)[] => ctx.stub.requests.map((r) => queryOf(r.url, 'start'));

describe('infinite queries walk every page as the iterators do', () => {
  const LISTINGS = ['transactions', 'coinTransactions', 'modules', 'resources'] as const;
  // Pages small enough that every listing of an account with items takes several: 7 modules or resources
  // (publisher: 45 and 29); 25 transactions (100 for busy's 2,500), so some end exactly on a page boundary
  // (exactly100, exactly200, busy) and one a single item past it (exactly101). Not smaller: each page is a
  // request, and 7 transactions a page cost twice the CPU for the same checks.
  const pageSizeOf = (listing: string, address: string): number =>
    listing === 'modules' || listing === 'resources' ? 7 : address === A.busy ? 100 : 25;
  for (const v of VERSIONS) {
    for (const listing of LISTINGS) {
      it(`${v}.${listing}: every account of the stub, to the end`, async () => {
        const { node, queries, qc } = setup();
        let mostPages = 0;
        // v2 answers 404 for an unknown account (below); v1 an empty listing.
        for (const address of Object.values(A).filter((a) => v === 'v1' || a !== A.unknown)) {
          const pageSize = pageSizeOf(listing, address);
          ctx.stub.reset();
          const expected = await collect(node[v][listing](address, { pageSize }));
          const iteratorStarts = starts();
          ctx.stub.reset();
          const options = infinite(queries[v][listing](address, { pageSize }));
          const data = await qc.fetchInfiniteQuery({ ...options, pages: Infinity });
          expectSameJson(itemsOf(v, listing, data), expected, `${v}.${listing}(${address})`);
          expect(starts(), 'the same requests as the iterator').toEqual(iteratorStarts);
          expect(new InfiniteQueryObserver(qc, options).getCurrentResult().hasNextPage).toBe(false);
          mostPages = Math.max(mostPages, data.pages.length);
        }
        expect(mostPages).toBeGreaterThanOrEqual(3);
      });
    }

    it(`${v}.transactions newest first: every account, to sequence number 0`, async () => {
      const { node, queries, qc } = setup();
      for (const address of Object.values(A).filter((a) => v === 'v1' || a !== A.unknown)) {
        const pageSize = pageSizeOf('transactions', address);
        const expected = await collect(node[v].transactions(address, { order: 'desc', pageSize }));
        const options = infinite(queries[v].transactions(address, { order: 'desc', pageSize }));
        const data = await qc.fetchInfiniteQuery({ ...options, pages: Infinity });
        expectSameJson(itemsOf(v, 'transactions', data), expected, `${v}.transactions(${address}, desc)`);
        expect(new InfiniteQueryObserver(qc, options).getCurrentResult().hasNextPage).toBe(false);
      }
    });
  }

  it('fetchNextPage of an observer, page by page, until hasNextPage is false', async () => {
    const { node, queries, qc } = setup();
    const observer = new InfiniteQueryObserver(qc, queries.v2.transactions(A.alice, { pageSize: 40 }));
    let result = await observer.fetchNextPage();
    while (result.hasNextPage) result = await observer.fetchNextPage();
    expect(result.error).toBeNull();
    expect(result.data!.pages.map((p) => p.record.length)).toEqual([40, 40, 40, 30]);
    expect(result.data!.pageParams).toEqual(['0', '40', '80', '120']);
    expect(result.data!.pages.flatMap((p) => p.record)).toEqual(await collect(node.v2.transactions(A.alice)));
  });

  it('page params are JSON: u64 starts in decimal, v1 byte cursors as the hex the listing takes back', async () => {
    const { queries, qc } = setup();
    const txs = await qc.fetchInfiniteQuery({ ...queries.v2.transactions(A.alice, { pageSize: 50, start: 10n }), pages: 2 });
    expect(txs.pageParams).toEqual(['10', '60']);
    const v1 = await qc.fetchInfiniteQuery({ ...queries.v1.modules(A.publisher, { pageSize: 10 }), pages: 3 });
    expect(v1.pageParams[0]).toBeUndefined();
    expect(v1.pageParams.slice(1)).toEqual([expect.stringMatching(/^[0-9a-f]+$/), expect.stringMatching(/^[0-9a-f]+$/)]);
  });

  it('an infinite query goes on after its cache went through JSON (dehydrate, persist, hydrate)', async () => {
    const { queries } = setup();
    /** Two pages, through JSON into another QueryClient, then page after page there: the pages of one uninterrupted walk. */
    const resumes = async <TPage, TKey extends NodeInfiniteQueryKey>(options: NodeInfiniteQueryOptions<TPage, TKey>): Promise<void> => {
      const before = queryClient();
      await before.fetchInfiniteQuery({ ...options, pages: 2 });
      const after = queryClient();
      hydrate(after, JSON.parse(JSON.stringify(dehydrate(before))));
      const observer = new InfiniteQueryObserver(after, options);
      expect(observer.getCurrentResult().data!.pages).toHaveLength(2);
      let result = await observer.fetchNextPage();
      while (result.hasNextPage) result = await observer.fetchNextPage();
      expect(result.data!.pages).toEqual((await queryClient().fetchInfiniteQuery({ ...options, pages: Infinity })).pages);
      expect(result.data!.pages.length).toBeGreaterThan(2);
    };
    await resumes(queries.v2.transactions(A.alice, { order: 'desc', pageSize: 40 })); // its first param is undefined: null after JSON
    await resumes(queries.v1.resources(A.publisher, { pageSize: 10 }));
  });

  it('a v1 byte-array start is the hex cursor: same pages as starting from that hex', async () => {
    const { node, queries, qc } = setup();
    const first = (await node.v1.listModules(A.publisher, { count: 4 })) as { Modules: { cursor: number[] } };
    const bytes = first.Modules.cursor;
    const fromBytes = queries.v1.modules(A.publisher, { pageSize: 10, start: bytes });
    expect(fromBytes.initialPageParam).toMatch(/^[0-9a-f]+$/);
    const data = await qc.fetchInfiniteQuery({ ...fromBytes, pages: Infinity });
    expect(itemsOf('v1', 'modules', data)).toEqual(await collect(node.v1.modules(A.publisher, { pageSize: 10, start: bytes })));
  });

  it('bad options are the first page\'s InvalidArgumentError, before any request', async () => {
    const { queries, qc } = setup();
    await expectInvalid(qc.fetchInfiniteQuery(queries.v2.transactions('0x1', { pageSize: 0 })), 'pageSize');
    await expectInvalid(qc.fetchInfiniteQuery(queries.v2.transactions('0x1', { pageSize: 101 })), 'pageSize');
    await expectInvalid(qc.fetchInfiniteQuery(queries.v2.coinTransactions('0x1', { order: 'desc' } as never)), 'order');
    await expectInvalid(qc.fetchInfiniteQuery(queries.v2.transactions('0x1', { order: 'desc', start: 5 } as never)), 'start');
    await expectInvalid(qc.fetchInfiniteQuery(queries.v2.transactions('0x1', { start: -1 })), 'start');
    expect(ctx.stub.requests).toEqual([]);
  });
});

describe('pages the stub never sends', () => {
  const GAPPY = '0x' + 'cd'.repeat(32);
  const MISSING = new Set([5, 13, 14, 20, 21, 22, 39]);
  const SEQS = Array.from({ length: 45 }, (_, i) => i).filter((s) => !MISSING.has(s));

  it('sequence numbers with gaps, ascending and newest first: the iterator\'s items, once each', async () => {
    const server = await startBadServer((url, res) => {
      const count = Number(url.searchParams.get('count') ?? 20);
      const start = url.searchParams.get('start');
      const rows = start === null ? SEQS.slice(-count).reverse() : SEQS.filter((s) => s >= Number(start)).slice(0, count);
      json(res, { record: rows.map((s) => ({ hash: `0x${s.toString(16)}`, header: { sequence_number: s } })) });
    });
    try {
      const { node, queries, qc } = setup(createNodeClient({ baseUrl: server.url }));
      for (const order of ['asc', 'desc'] as const) {
        const expected = await collect(node.v2.transactions(GAPPY, { order, pageSize: 6 }));
        const data = await qc.fetchInfiniteQuery({ ...queries.v2.transactions(GAPPY, { order, pageSize: 6 }), pages: Infinity });
        expect(data.pages.flatMap((p) => p.record)).toEqual(expected);
        expect(expected.map((t) => t.header.sequence_number)).toEqual(order === 'asc' ? SEQS : [...SEQS].reverse());
      }
    } finally {
      await server.close();
    }
  });

  it('a cursor that does not move forward ends the walk where the iterator ends', async () => {
    // New items on each page (a repeated item stops the iterator with an error), and a cursor that stays.
    const server = await startBadServer((url, res) => json(res, { record: [{ header: { sequence_number: Number(url.searchParams.get('start')) } }], cursor: 7 }));
    try {
      const { node, queries, qc } = setup(createNodeClient({ baseUrl: server.url }));
      const expected = await collect(node.v2.coinTransactions('0x1', { pageSize: 1 }));
      const options = queries.v2.coinTransactions('0x1', { pageSize: 1 });
      const data = await qc.fetchInfiniteQuery({ ...options, pages: 100 });
      expect(data.pages.flatMap((p) => p.record)).toEqual(expected);
      expect(data.pageParams).toEqual(['0', '7']);
      expect(new InfiniteQueryObserver(qc, options).getCurrentResult().hasNextPage).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('a page the walk cannot read is the query\'s ResponseShapeError', async () => {
    const server = await startBadServer((_url, res) => json(res, { record: [{ header: {} }] }));
    try {
      const { queries, qc } = setup(createNodeClient({ baseUrl: server.url }));
      const err = await rejectionOf(qc.fetchInfiniteQuery(queries.v2.transactions('0x1', { pageSize: 1 })));
      expect(err).toBeInstanceOf(ResponseShapeError);
      expect(err).toMatchObject({ path: '/record/0/header/sequence_number' });
    } finally {
      await server.close();
    }
  });
});

describe('cancelQueries aborts the request in flight', () => {
  it('a query: its request is closed and the fetch settles at once', async () => {
    const server = await startSilentServer();
    try {
      const { queries, qc } = setup(createNodeClient({ baseUrl: server.url, retry: false }));
      const options = queries.v2.getAccount('0x1');
      const pending = qc.fetchQuery(options);
      await until(() => server.requests.length === 1);
      await qc.cancelQueries({ queryKey: options.queryKey });
      expect(await rejectionOf(pending)).toBeInstanceOf(CancelledError);
      await until(() => server.closed[0] === true);
      expect(server.closed).toEqual([true]);
    } finally {
      await server.close();
    }
  });

  it('the next page of an infinite query over a slow stub answer: settles at once, the first page kept', async () => {
    const { queries, qc } = setup();
    const observer = new InfiniteQueryObserver(qc, queries.v2.transactions(A.alice, { pageSize: 50 }));
    await observer.fetchNextPage();
    ctx.stub.failNext('listTransactionsV2', 'slow', 1, { delayMs: 10_000 });
    const next = observer.fetchNextPage();
    await until(() => ctx.stub.requests.length === 2);
    const started = performance.now();
    await qc.cancelQueries({ queryKey: observer.options.queryKey });
    const result = await next;
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result.data!.pages).toHaveLength(1);
    expect(queryOf(ctx.stub.requests[1]!.url, 'start')).toBe('50');
  });

  it('a caller that does not cancel gets the answer: the signal is the query\'s own', async () => {
    const { node, queries, qc } = setup();
    ctx.stub.failNext('getAccountV2', 'slow', 1, { delayMs: 50 });
    expect(await qc.fetchQuery(queries.v2.getAccount(A.bob))).toEqual(await node.v2.getAccount(A.bob));
  });
});

describe('argument errors are the client\'s own classes', () => {
  it('InvalidArgumentError', async () => {
    const { queries, qc } = setup();
    expect(await rejectionOf(qc.fetchQuery(queries.v2.getModule('0x1', 'not a name')))).toBeInstanceOf(InvalidArgumentError);
  });
});

/** Waits (up to 5 s) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}

describe('the query options do not retry on top of the client (issue 37.5)', () => {
  /** A QueryClient whose defaults retry 3 times at once: only the options' own `retry: false` stops it. */
  const retrying = (): QueryClient => {
    const qc = new QueryClient({ defaultOptions: { queries: { gcTime: Infinity, retry: 3, retryDelay: 0 } } });
    clients.push(qc);
    return qc;
  };

  it('an unknown account is one request and one HttpError 404, not four', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    const unknown = '0x' + 'e'.repeat(64);
    const before = ctx.stub.requests.length;
    const err = await rejectionOf(retrying().fetchQuery(createNodeQueries(node).v2.getAccount(unknown)));
    expect(err).toMatchObject({ name: 'HttpError', code: 'HTTP_ERROR', status: 404 });
    expect(ctx.stub.requests.length - before).toBe(1);
  });

  it('an infinite query too; a retry of the user spread over the options still applies', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url, retry: false });
    const queries = createNodeQueries(node);
    ctx.stub.failNext('listTransactionsV2', 503, 2);
    const before = ctx.stub.requests.length;
    await expect(retrying().fetchInfiniteQuery(queries.v2.transactions(A.alice, { pageSize: 5 }))).rejects.toMatchObject({ status: 503 });
    expect(ctx.stub.requests.length - before).toBe(1);
    const pages = await retrying().fetchInfiniteQuery({ ...queries.v2.transactions(A.alice, { pageSize: 5 }), retry: 1 });
    expect(pages.pages).toHaveLength(1);
    expect(ctx.stub.requests.length - before).toBe(3);
  });
});

describe('v3 infinite queries page as the v3 walks do', () => {
  it.each([
    ['modules (header cursor)', (q: ReturnType<typeof createNodeQueries>['v3']) => q.modules(A.publisher, { pageSize: 7 }), (n: NodeClient['v3']) => n.modules(A.publisher, { pageSize: 7 })],
    ['coin transactions, ascending', (q: ReturnType<typeof createNodeQueries>['v3']) => q.coinTransactions(A.bob, { pageSize: 9, order: 'asc' }), (n: NodeClient['v3']) => n.coinTransactions(A.bob, { pageSize: 9, order: 'asc' })],
    ['coin transactions, newest first', (q: ReturnType<typeof createNodeQueries>['v3']) => q.coinTransactions(A.bob, { pageSize: 9, order: 'desc' }), (n: NodeClient['v3']) => n.coinTransactions(A.bob, { pageSize: 9, order: 'desc' })],
    ['transactions, newest first', (q: ReturnType<typeof createNodeQueries>['v3']) => q.transactions(A.alice, { pageSize: 40, order: 'desc' }), (n: NodeClient['v3']) => n.transactions(A.alice, { pageSize: 40, order: 'desc' })],
  ] as const)('%s', async (_, options, walk) => {
    const { node, queries, qc } = setup();
    const observer = new InfiniteQueryObserver(qc, options(queries.v3) as never);
    await observer.refetch();
    let result = observer.getCurrentResult();
    while (result.hasNextPage) result = await observer.fetchNextPage();
    const pages = (result.data as InfiniteData<unknown>).pages;
    // A cursor page is { items, cursor }; a transaction page the bare array.
    const items = pages.flatMap((page) => (Array.isArray(page) ? page : (page as { items: unknown[] }).items));
    expect(items).toEqual(await collect(walk(node.v3) as AsyncIterable<unknown>));
    expect(items.length).toBeGreaterThan(0);
  });
});
