/**
 * Resumable walks: a walk's pages each say where to go on (`resume`), and a new walk given it yields
 * exactly what was left: no item twice, none skipped, whatever the page the first walk stopped after.
 * The README's crash-safe indexer runs here verbatim, killed mid-walk and started again.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeStub, STUB_ACCOUNTS, type NodeStubHandle } from '@x/testing';
import { createNodeClient, NetworkError, type NodeClient, type TransactionV3, type Walk, type WalkPage } from '@x/node-client';
import { collect, rejectionOf } from '@x-tools/test-helpers';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const address = STUB_ACCOUNTS.alice;
let stub: NodeStubHandle;
beforeAll(async () => {
  stub = await startNodeStub({ now: () => Date.UTC(2024, 10, 20) });
});
afterAll(() => stub.close());

type Walker = (node: NodeClient, options: { resume?: string | undefined }) => Walk<unknown>;
const WALKS: readonly { name: string; walk: Walker }[] = [
  { name: 'v3.transactions', walk: (n, o) => n.v3.transactions(address, { pageSize: 7, ...o }) },
  { name: 'v3.transactions, 3 pages at once', walk: (n, o) => n.v3.transactions(address, { pageSize: 7, concurrency: 3, ...o }) },
  { name: 'v3.transactions newest first', walk: (n, o) => n.v3.transactions(address, { pageSize: 7, order: 'desc', ...o }) },
  { name: 'v3.coinTransactions', walk: (n, o) => n.v3.coinTransactions(address, { pageSize: 40, ...o }) },
  { name: 'v3.coinTransactions newest first', walk: (n, o) => n.v3.coinTransactions(address, { pageSize: 40, order: 'desc', ...o }) },
  { name: 'v2.coinTransactions', walk: (n, o) => n.v2.coinTransactions(address, { pageSize: 40, ...o }) },
  { name: 'v3.events', walk: (n, o) => n.v3.events('0x1::coin::DepositEvent', { pageSize: 100, ...o }) },
  { name: 'v3.blocks', walk: (n, o) => n.v3.blocks({ start_height: 100, end_height: 130, concurrency: 4, ...o }) },
  { name: 'v3.blocks newest first', walk: (n, o) => n.v3.blocks({ start_height: 100, end_height: 130, order: 'desc', ...o }) },
];

describe.each(WALKS)('$name', ({ walk }) => {
  it('resumed after any page, yields exactly what the whole walk yields after it', async () => {
    const node = createNodeClient({ baseUrl: stub.url });
    const whole = (await collect(walk(node, {}))).map((item) => JSON.stringify(item));
    const pages = await collect(walk(node, {}).pages());
    expect(pages.flatMap((p) => p.items).map((item) => JSON.stringify(item))).toEqual(whole);
    expect(pages.length).toBeGreaterThan(3);
    // Stopped after page k (the first, one in the middle, the one before the last), then resumed.
    for (const k of [0, pages.length >> 1, pages.length - 2]) {
      const done = pages.slice(0, k + 1).flatMap((p) => p.items);
      const rest = await collect(walk(node, { resume: pages[k]!.resume! }));
      expect([...done, ...rest].map((item) => JSON.stringify(item))).toEqual(whole);
    }
  });
});

it('a resume point of another walk, or one that is not one, is an InvalidArgumentError naming resume', async () => {
  const node = createNodeClient({ baseUrl: stub.url });
  const [page] = await collect(node.v3.transactions(address, { pageSize: 5, limit: 5 }).pages());
  expect(page!.resume).toBe('next:asc:n5');
  const err = await rejectionOf(collect(node.v3.transactions(address, { order: 'desc', resume: page!.resume })));
  expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'resume' });
});

describe('README: a crash-safe indexer', () => {
  it('killed mid-walk and started again, has every item exactly once', async () => {
    const block = `// Saves a page's items and its resume point together: one database transaction in a real indexer.
const db = { items: [] as TransactionV3[], resume: undefined as string | undefined };
const save = (page: WalkPage<TransactionV3>): void => {
  db.items.push(...page.items);
  db.resume = page.resume;
};

// Killed anywhere and started again, it goes on after the last page saved: every item exactly once.
for await (const page of node.v3.coinTransactions(address, { resume: db.resume }).pages()) save(page);`;
    expect(readme).toContain(block);
    // The process dies after a few pages: its fetch fails from the fourth request on.
    let sent = 0;
    const dying = (input: Request): Promise<Response> => (++sent > 3 ? Promise.reject(new TypeError('fetch failed')) : fetch(input));
    let node = createNodeClient({ baseUrl: stub.url, fetch: dying, retry: false });
    // Verbatim from the README, over the dying client, then over a healthy one.
    const db = { items: [] as TransactionV3[], resume: undefined as string | undefined };
    const save = (page: WalkPage<TransactionV3>): void => {
      db.items.push(...page.items);
      db.resume = page.resume;
    };
    const crash = await rejectionOf(
      (async () => {
        for await (const page of node.v3.coinTransactions(address, { resume: db.resume }).pages()) save(page);
      })(),
    );
    expect(crash).toBeInstanceOf(NetworkError);
    expect(db.items.length).toBeGreaterThan(0);
    node = createNodeClient({ baseUrl: stub.url });
    for await (const page of node.v3.coinTransactions(address, { resume: db.resume }).pages()) save(page);
    const whole = await collect(node.v3.coinTransactions(address));
    expect(db.items.map((tx) => tx.hash)).toEqual(whole.map((tx) => tx.hash));
    expect(new Set(db.items.map((tx) => tx.hash)).size).toBe(db.items.length);
  });
});
