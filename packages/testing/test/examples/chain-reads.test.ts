// chain.test.ts
import { expect, it } from 'vitest';
import { createNodeStubFetch } from '@x/testing';

type Tx = { hash: string; block_header: { height: number } };

it('finds a transaction in its block, pages events, runs a view, follows the clock', async () => {
  let now = Date.UTC(2024, 10, 20);
  const stub = createNodeStubFetch({ now: () => now }); // a clock of your own: the latest block follows it
  const json = async <T>(path: string, init?: RequestInit): Promise<T> => (await stub(`${stub.url}${path}`, init)).json() as Promise<T>;
  const alice = stub.accounts.alice;

  const [tx] = await json<Tx[]>(`/rpc/v3/accounts/${alice}/transactions?count=1`);
  const block = await json<{ transactions: Tx[] }>(`/rpc/v3/block/height/${tx!.block_header.height}?with_finalized_transactions=true`);
  expect(block.transactions.map((t) => t.hash)).toContain(tx!.hash);
  expect(await json<Tx>(`/rpc/v3/transactions/${tx!.hash}`)).toEqual(tx);

  // Events of a type, oldest first: the header names the last one; ask again after it, until a page is empty.
  let start = '';
  let events = 0;
  for (;;) {
    const page = await stub(`${stub.url}/rpc/v3/events/0x1::code::PublishPackage?limit=20${start && `&start=${start}`}`);
    const { data } = (await page.json()) as { data: unknown[] };
    if (data.length === 0) break;
    events += data.length;
    start = page.headers.get('x-supra-cursor')!;
  }
  expect(events).toBe(45); // one per module the publisher published

  const view = await json<{ result: unknown[] }>('/rpc/v3/view', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ function: '0x1::coin::balance', type_arguments: ['0x1::supra_coin::SupraCoin'], arguments: [alice] }),
  });
  expect(view.result).toEqual([expect.stringMatching(/^[0-9]+$/)]); // a u64 as decimal text

  const latest = async (): Promise<number> => (await json<{ header: { height: number } }>('/rpc/v3/block')).header.height;
  const before = await latest();
  now += 60_000;
  expect(await latest()).toBeGreaterThan(before);
});
