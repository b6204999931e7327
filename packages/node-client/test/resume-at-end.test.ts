/**
 * The README's crash-safe indexer over the stub, run to the end and then run again ("an indexer that runs
 * again picks up only what is new"): no item a second time. The last page's `resume` is where new items
 * will come (resume-growing.test.ts adds them).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNodeStub, STUB_ACCOUNTS, type NodeStubHandle } from '@x/testing';
import { createNodeClient, type TransactionV3, type WalkPage } from '@x/node-client';

const address = STUB_ACCOUNTS.alice;
let stub: NodeStubHandle;
beforeAll(async () => {
  stub = await startNodeStub({ now: () => Date.UTC(2024, 10, 20) });
});
afterAll(() => stub.close());

it.each([
  ['v3.coinTransactions', (node: ReturnType<typeof createNodeClient>, resume: string | undefined) => node.v3.coinTransactions(address, { pageSize: 40, resume })],
  ['v3.transactions', (node: ReturnType<typeof createNodeClient>, resume: string | undefined) => node.v3.transactions(address, { pageSize: 7, resume })],
  ['v3.events', (node: ReturnType<typeof createNodeClient>, resume: string | undefined) => node.v3.events('0x1::coin::DepositEvent', { pageSize: 100, resume })],
] as const)('%s: the README indexer, run to the end and run again, stores no item twice', async (_name, walkOf) => {
  const node = createNodeClient({ baseUrl: stub.url });
  const db = { items: [] as unknown[], resume: undefined as string | undefined };
  const save = (page: WalkPage<unknown>): void => {
    db.items.push(...page.items);
    db.resume = page.resume;
  };
  for await (const page of walkOf(node, db.resume).pages()) save(page as WalkPage<TransactionV3>);
  const first = db.items.length;
  expect(first).toBeGreaterThan(0);
  // Nothing new on the node: a second run must add nothing.
  for await (const page of walkOf(node, db.resume).pages()) save(page as WalkPage<TransactionV3>);
  expect(db.items.length, `resume after the last page was ${String(db.resume)}`).toBe(first);
});

it('v3.blocks to the latest: the indexer, run to the end and run again, stores no block twice', async () => {
  const node = createNodeClient({ baseUrl: stub.url });
  const latest = (await node.v3.getLatestBlock()).header.height;
  const db = { items: [] as unknown[], resume: undefined as string | undefined };
  const walkOf = (resume: string | undefined) => node.v3.blocks({ start_height: latest - 10, concurrency: 4, resume });
  for await (const page of walkOf(db.resume).pages()) {
    db.items.push(...page.items);
    db.resume = page.resume;
  }
  const first = db.items.length;
  expect(first).toBeGreaterThan(0);
  for await (const page of walkOf(db.resume).pages()) {
    db.items.push(...page.items);
    db.resume = page.resume;
  }
  const heights = db.items.map((b) => (b as { header: { height: number } }).header.height);
  expect(new Set(heights).size, `resume after the last block was ${String(db.resume)}`).toBe(heights.length);
});
