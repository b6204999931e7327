/**
 * Walks over two nodes serving the same chain (two node stubs of one seed): the pages of a walk come
 * from the node that answered, and when that node dies mid-walk (503s from page k on, connection resets,
 * the server closed) the walk goes on from the same position on the next node. The items must be exactly
 * those of an uninterrupted walk (no duplicate, no gap), the pages before the failure from the first
 * node only and those after from the second only, as the servers' request logs show.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNodeClient, type NodeClient } from '@x/node-client';
import { STUB_ACCOUNTS, startNodeStub, type NodeStubHandle } from '@x/testing';
import { collect, expectNoOpenHandles } from '@x-tools/test-helpers';
import { queryOf } from './helpers.ts';

const { alice } = STUB_ACCOUNTS;
const PAGE = 10;
/** The failure starts with the page after this many. */
const K = 5;

let b: NodeStubHandle;
let ref: NodeStubHandle; // the uninterrupted walks, on a stub of their own (a walk's pages fetched ahead may arrive late)
beforeAll(async () => {
  [b, ref] = await Promise.all([startNodeStub({ seed: 7 }), startNodeStub({ seed: 7 })]);
});
beforeEach(() => {
  b.reset();
  ref.reset();
});
afterAll(async () => {
  await Promise.all([b.close(), ref.close()]);
  await expectNoOpenHandles();
});

type OperationId = 'listTransactionsV2' | 'listCoinTransactionsV2';
type Walk = { walk: (node: NodeClient) => AsyncGenerator<unknown, void, undefined>; operationId: OperationId; concurrency: number };
const WALKS: Record<string, Walk> = {
  transactions: { walk: (n) => n.v2.transactions(alice, { pageSize: PAGE }), operationId: 'listTransactionsV2', concurrency: 1 },
  'coinTransactions (cursors)': { walk: (n) => n.v2.coinTransactions(alice, { pageSize: PAGE }), operationId: 'listCoinTransactionsV2', concurrency: 1 },
  'transactions, concurrency 4': { walk: (n) => n.v2.transactions(alice, { pageSize: PAGE, concurrency: 4 }), operationId: 'listTransactionsV2', concurrency: 4 },
};

/**
 * Each client tags its requests (`x-walk`), so that pages an earlier walk fetched ahead and then
 * dropped, arriving late, are not counted as this one's.
 */
let tag = 0;
const tagged = (baseUrl: string | string[], options: Parameters<typeof createNodeClient>[0] = {}): { node: NodeClient; tag: string } => {
  const t = String(++tag);
  return { node: createNodeClient({ baseUrl, headers: { 'x-walk': t }, ...options }), tag: t };
};

/** The `start` of each listing request of the walk tagged `t` a stub received, from the `from`th on. */
const starts = (stub: NodeStubHandle, operationId: string, t: string, from = 0): string[] =>
  stub.requests
    .filter((r) => r.operationId === operationId && r.headers['x-walk'] === t)
    .slice(from)
    .map((r) => queryOf(r.url, 'start') ?? '');

/**
 * The uninterrupted walk of each kind, and the starts of each listing's pages asked one by one, on `ref`:
 * made once for the file (the stub's answers do not change), not again in each case that compares with them.
 */
const references = new Map<Walk, Promise<unknown[]>>();
const sequentialPages = new Map<OperationId, Promise<string[]>>();
const referenceOf = (walk: Walk): Promise<unknown[]> => {
  if (!references.has(walk)) references.set(walk, collect(walk.walk(createNodeClient({ baseUrl: ref.url }))));
  return references.get(walk)!;
};
const pagesOf = (operationId: OperationId): Promise<string[]> => {
  if (!sequentialPages.has(operationId)) {
    const seqWalk = Object.values(WALKS).find((x) => x.operationId === operationId && x.concurrency === 1)!;
    const seq = tagged(ref.url);
    sequentialPages.set(operationId, collect(seqWalk.walk(seq.node)).then(() => starts(ref, operationId, seq.tag)));
  }
  return sequentialPages.get(operationId)!;
};

type Failure = { fail: (a: NodeStubHandle, operationId: OperationId) => Promise<void> | void; closed?: boolean; concurrent: boolean };
const FAILURES: Record<string, Failure> = {
  '503 from page k on': { fail: (a, id) => a.failNext(id, 503, 1_000), concurrent: true },
  'connection resets from page k on': { fail: (a, id) => a.failNext(id, 'reset', 1_000), concurrent: true },
  'the server closed after page k': { fail: (a) => a.close(), closed: true, concurrent: true },
  // a is awake again at once, and the walk stays on the node that answered (affinity).
  'one 503 with Retry-After: 0': { fail: (a, id) => a.failNext(id, 503, 1, { retryAfter: '0' }), concurrent: false },
};

describe('a node that dies mid-walk: the walk goes on from the same position on the next node', () => {
  const cases = Object.entries(WALKS).flatMap(([w, walk]) =>
    Object.entries(FAILURES)
      .filter(([, f]) => walk.concurrency === 1 || f.concurrent)
      .map(([f, failure]) => [`${w}: ${f}`, walk, failure] as const),
  );

  it.each(cases)('%s', async (_name, kind, { fail, closed }) => {
    const { walk, operationId, concurrency } = kind;
    // The uninterrupted walk, and the starts of its pages asked one by one.
    const reference = await referenceOf(kind);
    expect(reference.length).toBeGreaterThan(K * PAGE);
    const pages = await pagesOf(operationId);

    const a = await startNodeStub({ seed: 7 });
    try {
      const { node, tag: t } = tagged([a.url, b.url], { retry: { baseDelayMs: 1_000 } });
      const items: unknown[] = [];
      let askedOfA = 0;
      for await (const item of walk(node)) {
        items.push(item);
        if (items.length === K * PAGE) {
          askedOfA = starts(a, operationId, t).length;
          await fail(a, operationId);
        }
      }
      // Exactly the uninterrupted walk: no item twice, none missing, same order.
      expect(items).toEqual(reference);

      const fromA = starts(a, operationId, t);
      const afterA = starts(a, operationId, t, askedOfA);
      const fromB = starts(b, operationId, t);
      if (concurrency === 1) {
        // k pages from a; then a's failed request (none once closed); then b, from page k on, to the end.
        expect(fromA.slice(0, askedOfA)).toEqual(pages.slice(0, K));
        expect(afterA).toEqual(closed ? [] : [pages[K]]);
        expect(fromB).toEqual(pages.slice(K));
      } else {
        // Pages fetched ahead were in flight on a when it failed: those fail over to b too. Nothing
        // before page k comes from b; a gets no request once one of them has failed (it rests), so at
        // most a window's worth after the failure; b serves each page from its first on, once.
        const n = (s: string): number => Number(s);
        const firstFromB = Math.min(...fromB.map(n));
        expect(firstFromB).toBeGreaterThanOrEqual(K * PAGE);
        expect(afterA.length).toBeLessThanOrEqual(closed ? 0 : concurrency);
        const last = n(pages.at(-1)!);
        const bInRange = fromB.map(n).filter((s) => s <= last);
        expect([...bInRange].sort((x, y) => x - y)).toEqual(pages.map(n).filter((s) => s >= firstFromB));
        if (!closed) {
          // a answered every request it got before it failed (and none after): all below b's pages.
          expect(Math.max(...fromA.slice(0, askedOfA).map(n))).toBeLessThan(firstFromB);
        }
      }
    } finally {
      await a.close();
    }
  });

  it('a healthy first node serves the whole walk; the other gets nothing', async () => {
    const a = await startNodeStub({ seed: 7 });
    try {
      const { node, tag: t } = tagged([a.url, b.url]);
      const items = await collect(node.v2.transactions(alice, { pageSize: PAGE, concurrency: 4 }));
      expect(items.length).toBeGreaterThan(K * PAGE);
      expect(starts(a, 'listTransactionsV2', t).length).toBeGreaterThan(K);
      expect(starts(b, 'listTransactionsV2', t)).toEqual([]);
    } finally {
      await a.close();
    }
  });
});
