/**
 * A pruned node that answers an account's ascending history from sequence number 0 with 200 (not 410),
 * its items starting where its kept history starts and its `x-supra-oldest-block` above 0: both signs
 * (the header above the walk's floor, the first sequence number above the start asked) make the page
 * partial, so it is asked of the archive node beside it, or, with none, the walk's HistoryPrunedError.
 */
import { afterEach, expect, it } from 'vitest';
import { createNodeClient, HistoryPrunedError } from '@x/node-client';
import { collect, rejectionOf } from '@x-tools/test-helpers';
import { json, startBadServer, type BadServer } from './helpers.js';

const ADDRESS = `0x${'ab'.repeat(32)}`;
const LAST = 59;
const tx = (n: number) => ({ txn_type: 'user', hash: `0x${n.toString(16).padStart(64, '0')}`, status: 'Success', header: { sequence_number: n, sender: ADDRESS } });
const servers: BadServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((s) => s.close())));

/** A node keeping the account's transactions from `kept` on, saying `oldest` as its oldest block. */
async function node(kept: number, oldest: number): Promise<BadServer> {
  const server = await startBadServer((url, res) => {
    const count = Number(url.searchParams.get('count') ?? 20);
    const start = Number(url.searchParams.get('start') ?? 0);
    const from = Math.max(start, kept);
    const items = [];
    for (let n = from; n <= LAST && items.length < count; n++) items.push(tx(n));
    res.setHeader('x-supra-oldest-block', String(oldest));
    json(res, items);
  });
  servers.push(server);
  return server;
}

it.each([1, 4])('v3.transactions ascending (concurrency %i) over [pruned, archive] yields the whole history, from 0', async (concurrency) => {
  const pruned = await node(50, 5800);
  const archive = await node(0, 0);
  const client = createNodeClient({ baseUrl: [pruned.url, archive.url] });
  const seqs = (await collect(client.v3.transactions(ADDRESS, { pageSize: 20, concurrency }))).map((t) => (t as ReturnType<typeof tx>).header.sequence_number);
  expect(seqs[0]).toBe(0);
  expect(seqs).toHaveLength(LAST + 1);
});

it.each([1, 4])('v3.transactions ascending (concurrency %i) over the pruned node alone ends with HistoryPrunedError, not a silent partial history', async (concurrency) => {
  const pruned = await node(50, 5800);
  const client = createNodeClient({ baseUrl: pruned.url });
  const err = await rejectionOf(collect(client.v3.transactions(ADDRESS, { pageSize: 20, concurrency })));
  expect(err).toBeInstanceOf(HistoryPrunedError);
  expect(err).toMatchObject({ code: 'HISTORY_PRUNED', oldestBlock: 5800n });
});

it("with history: 'kept' the walk takes what the pruned node keeps", async () => {
  const pruned = await node(50, 5800);
  const client = createNodeClient({ baseUrl: pruned.url });
  const seqs = (await collect(client.v3.transactions(ADDRESS, { pageSize: 20, history: 'kept' }))).map((t) => (t as ReturnType<typeof tx>).header.sequence_number);
  expect(seqs).toEqual(Array.from({ length: 10 }, (_, i) => 50 + i));
});
