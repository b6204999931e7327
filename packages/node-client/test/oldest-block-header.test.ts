/**
 * `x-supra-oldest-block` sent twice by the node (or a proxy that adds it again) comes joined as
 * "5800, 5800": still a pruned node's header, so its first page (from the listing's default) is asked
 * of the archive node beside it rather than taken as the start of the history.
 */
import { afterEach, expect, it } from 'vitest';
import { createNodeClient, pageInfo } from '@x/node-client';
import { collect } from '@x-tools/test-helpers';
import { json, startBadServer, type BadServer } from './helpers.js';

const ADDRESS = `0x${'ab'.repeat(32)}`;
const tx = (n: number) => ({ txn_type: 'user', hash: `0x${n.toString(16).padStart(64, '0')}`, status: 'Success', header: { sequence_number: n, sender: ADDRESS } });
const servers: BadServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((s) => s.close())));

/** Coin transactions 0..29 (cursor = index), kept from `kept` on; `oldest` as the header(s) given. */
async function node(kept: number, oldest: string[]): Promise<BadServer> {
  const server = await startBadServer((url, res) => {
    const count = Number(url.searchParams.get('count') ?? 20);
    const start = url.searchParams.get('start');
    const from = Math.max(start === null ? 0 : Number(start) + 1, kept);
    const items = [];
    for (let n = from; n < 30 && items.length < count; n++) items.push(tx(n));
    const headers: [string, string][] = [['content-type', 'application/json'], ...oldest.map((o): [string, string] => ['x-supra-oldest-block', o])];
    if (items.length > 0) headers.push(['x-supra-cursor', String(items.at(-1)!.header.sequence_number)]);
    const text = JSON.stringify(items);
    res.writeHead(200, headers.flat());
    res.end(text);
  });
  servers.push(server);
  return server;
}

it('a pruned node that sends x-supra-oldest-block twice is still a pruned node: the walk takes the archive\'s history', async () => {
  const pruned = await node(20, ['5800', '5800']);
  const archive = await node(0, ['0']);
  const client = createNodeClient({ baseUrl: [pruned.url, archive.url] });
  const got = (await collect(client.v3.coinTransactions(ADDRESS, { pageSize: 10 }))).map((t) => (t as ReturnType<typeof tx>).header.sequence_number);
  expect(got[0]).toBe(0);
});

// Headers as a node (or a proxy) may send them, each a list of lines, and what the page says of them.
it.each([
  { oldest: ['5800'], chain: ['8'], oldestBlock: 5800n, chainId: 8 },
  { oldest: ['5800', '5800'], chain: ['8', '8'], oldestBlock: 5800n, chainId: 8 },
  { oldest: ['5800,6000'], chain: ['8', '6'], oldestBlock: 6000n, chainId: undefined },
  { oldest: ['5800', 'soon'], chain: ['8', ''], oldestBlock: undefined, chainId: undefined },
  { oldest: [' 7 '], chain: ['99999999999999999999'], oldestBlock: 7n, chainId: undefined },
])('x-supra-oldest-block $oldest and x-supra-chain-id $chain read as $oldestBlock and $chainId', async ({ oldest, chain, oldestBlock, chainId }) => {
  const server = await startBadServer((_url, res) => {
    for (const [name, values] of [['x-supra-oldest-block', oldest], ['x-supra-chain-id', chain]] as const) res.setHeader(name, values);
    json(res, []);
  });
  servers.push(server);
  const page = await createNodeClient({ baseUrl: server.url }).v3.listTransactions(ADDRESS, { count: 5 });
  const info = pageInfo(page);
  expect({ oldestBlock: info?.oldestBlock, chainId: info?.chainId }).toEqual({ oldestBlock, chainId });
});
