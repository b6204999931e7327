/**
 * The end of an ascending walk is where new items will come: an indexer that stores each page's `resume`
 * and runs again after the listing grew gets exactly the new items, whatever the node does at its end (an
 * empty page without a cursor, a last page with an empty cursor, a page of sequence numbers that ends on
 * a page boundary).
 */
import { afterEach, expect, it } from 'vitest';
import { createNodeClient, type NodeClient, type Walk } from '@x/node-client';
import { collect, rejectionOf } from '@x-tools/test-helpers';
import { json, startBadServer, type BadServer } from './helpers.js';

const ADDRESS = `0x${'ab'.repeat(32)}`;
const servers: BadServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((s) => s.close())));

/** A node whose listing is `items` (growing as the test pushes), paged as `end` says at its end. */
async function node(items: number[], end: 'empty-cursor' | 'empty-page'): Promise<string> {
  const server = await startBadServer((url, res) => {
    const count = Number(url.searchParams.get('count'));
    if (url.pathname.endsWith('/automated_transactions')) {
      // A header cursor: the index of the last item given (exclusive start).
      const cursor = url.searchParams.get('cursor');
      const from = cursor === null ? 0 : Number(cursor) + 1;
      const page = items.slice(from, from + count).map((n) => ({ hash: `0x${n.toString(16)}` }));
      const more = from + page.length < items.length;
      // 'empty-cursor': the last page says so with an empty cursor; 'empty-page': every page gives one, the end is an empty page.
      const cursorOut = end === 'empty-cursor' ? (more ? String(from + page.length - 1) : '') : page.length > 0 ? String(from + page.length - 1) : undefined;
      if (cursorOut !== undefined) res.setHeader('x-supra-cursor', cursorOut);
      return json(res, page);
    }
    // Sequence numbers: a page from `start`, ascending.
    const start = Number(url.searchParams.get('start') ?? 0);
    json(res, items.filter((n) => n >= start).slice(0, count).map((n) => ({ txn_type: 'user', hash: `0x${n.toString(16)}`, status: 'Success', header: { sequence_number: n, sender: ADDRESS } })));
  });
  servers.push(server);
  return server.url;
}

type Case = { name: string; end: 'empty-cursor' | 'empty-page'; walk: (node: NodeClient, resume: string | undefined) => Walk<unknown> };
const CASES: Case[] = [
  { name: 'header cursor, empty on the last page', end: 'empty-cursor', walk: (n, resume) => n.v3.automatedTransactions(ADDRESS, { pageSize: 4, resume }) },
  { name: 'header cursor, an empty page at the end', end: 'empty-page', walk: (n, resume) => n.v3.automatedTransactions(ADDRESS, { pageSize: 4, resume }) },
  { name: 'sequence numbers, one page at a time', end: 'empty-page', walk: (n, resume) => n.v3.transactions(ADDRESS, { pageSize: 4, resume }) },
  { name: 'sequence numbers, 3 pages at once', end: 'empty-page', walk: (n, resume) => n.v3.transactions(ADDRESS, { pageSize: 4, concurrency: 3, resume }) },
];

it.each(CASES.flatMap((c) => [6, 8].map((first) => ({ ...c, first }))))('$name, $first items then 5 more: run again, the indexer gets only the new ones', async ({ end, walk, first }) => {
  const items = Array.from({ length: first }, (_, i) => i);
  const client = createNodeClient({ baseUrl: await node(items, end), retry: false });
  const db = { items: [] as unknown[], resume: undefined as string | undefined };
  const run = async (): Promise<void> => {
    for await (const page of walk(client, db.resume).pages()) {
      db.items.push(...page.items);
      db.resume = page.resume;
    }
  };
  await run();
  expect(db.items).toHaveLength(first);
  expect(db.resume).toBeDefined();
  // Nothing new: nothing again.
  await run();
  expect(db.items).toHaveLength(first);
  items.push(first, first + 1, first + 2, first + 3, first + 4);
  await run();
  const ids = db.items.map((t) => (t as { hash: string }).hash);
  expect(ids).toEqual(items.map((n) => `0x${n.toString(16)}`));
});

it.each([
  ['a skip on a walk over sequence numbers', (n: NodeClient) => n.v3.transactions(ADDRESS, { resume: 'next:asc:k3:n5' })],
  ['a skip newest first', (n: NodeClient) => n.v3.automatedTransactions(ADDRESS, { order: 'desc', resume: 'next:desc:k3:sc' })],
  ['a skip of more than a page', (n: NodeClient) => n.v3.automatedTransactions(ADDRESS, { resume: 'next:asc:k1001:s7' })],
  ['the default page without a skip', (n: NodeClient) => n.v3.automatedTransactions(ADDRESS, { resume: 'next:asc:d' })],
  ['a skip of zero', (n: NodeClient) => n.v3.automatedTransactions(ADDRESS, { resume: 'next:asc:k0:s7' })],
])('a resume point with %s is an InvalidArgumentError naming resume, before any request', async (_case, walkOf) => {
  const url = await node([1, 2, 3], 'empty-cursor');
  const err = await rejectionOf(collect(walkOf(createNodeClient({ baseUrl: url }))));
  expect(err).toMatchObject({ name: 'InvalidArgumentError', code: 'INVALID_ARGUMENT', parameter: 'resume' });
  expect(servers.at(-1)!.requests).toEqual([]);
});
