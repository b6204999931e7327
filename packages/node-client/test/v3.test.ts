/**
 * The v3 account API over loopback servers of the test's own that answer as the node's served document
 * says: bare arrays, the next cursor in `x-supra-cursor` (absent or empty on the last page), `ascending`
 * (default descending), the chain id in `x-supra-chain-id`, 410 with `x-supra-oldest-block` below a
 * node's pruned history.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ChainIdMismatchError,
  createNodeClient,
  fallback,
  HistoryPrunedError,
  http,
  listAutomatedTransactionsV3,
  listCoinTransactionsV3,
  listModulesV3,
  NETWORKS,
  walkCoinTransactionsV3,
  walkTransactionsV3,
  type NodeClientOptions,
} from '@x/node-client';
import { collect, expectInvalid, rejectionOf } from '@x-tools/test-helpers';

/** The account's transactions: sequence numbers 0..TOTAL-1. */
const TOTAL = 250;
const tx = (n: number) => ({ txn_type: 'user', hash: `0x${n.toString(16).padStart(64, '0')}`, header: { sequence_number: n } });
/** Coin transactions, by their cursor 1..COINS (cursor = position), the `type` of every third one `auto`. */
const COINS = 45;
const coin = (c: number) => ({ ...tx(c), txn_type: c % 3 === 0 ? 'automated' : 'user' });
const MODULES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];

type Node = { url: string; requests: URL[] };
const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve()))))));

/**
 * A v3 node of the test's own. `chainId` is sent on every answer unless undefined; `oldest` is the lowest
 * sequence number its transaction history keeps (a read below it is a 410); `liveEnds` sends an empty
 * `x-supra-cursor` on the last page (else none).
 */
async function v3Node(o: { chainId?: number | string | undefined; oldest?: number; liveEnds?: boolean } = {}): Promise<Node> {
  const requests: URL[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, 'http://x');
    requests.push(url);
    const q = url.searchParams;
    const count = Number(q.get('count') ?? 20);
    const asc = q.get('ascending') === 'true';
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (o.chainId !== undefined) headers['x-supra-chain-id'] = String(o.chainId);
    const send = (status: number, body: unknown, extra: Record<string, string> = {}): void => {
      res.writeHead(status, { ...headers, ...extra });
      res.end(JSON.stringify(body));
    };
    const path = url.pathname.replace(/^\/rpc\/v3\/accounts\/[^/]+/, '');
    if (path === '') return send(200, { sequence_number: 7, authentication_key: `0x${'ab'.repeat(32)}` });
    if (path === '/transactions') {
      const start = q.has('start') ? Number(q.get('start')) : asc ? 0 : TOTAL - 1;
      if (o.oldest !== undefined && (asc ? start : start - count + 1) < o.oldest) return send(410, { message: 'pruned' }, { 'x-supra-oldest-block': '1234' });
      const seqs = asc ? range(start, Math.min(TOTAL, start + count)) : range(Math.max(0, start - count + 1), start + 1).reverse();
      return send(200, seqs.map(tx));
    }
    if (path === '/coin_transactions' || path === '/automated_transactions') {
      const after = q.get(path === '/coin_transactions' ? 'start' : 'cursor');
      const all = range(1, COINS + 1).filter((c) => !q.has('type') || (q.get('type') === 'auto') === (c % 3 === 0));
      const ordered = asc ? all : all.reverse();
      const from = after === null ? 0 : ordered.findIndex((c) => String(c) === after) + 1;
      const page = ordered.slice(from, from + count);
      const more = from + count < ordered.length && page.length > 0;
      return send(200, page.map(coin), more ? { 'x-supra-cursor': String(page.at(-1)) } : o.liveEnds ? { 'x-supra-cursor': '' } : {});
    }
    if (path === '/modules') {
      const from = q.has('start') ? Number(q.get('start')) : 0;
      const page = MODULES.slice(from, from + count).map((name) => ({ bytecode: '0x00', abi: { name } }));
      const more = from + count < MODULES.length;
      return send(200, page, more ? { 'x-supra-cursor': String(from + count) } : o.liveEnds ? { 'x-supra-cursor': '' } : {});
    }
    send(404, { message: 'no such path' });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}
const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
// The items are TransactionV3, a union: only the user and automated kinds have a header. These are all user ones.
const seqOf = (t: unknown): number => (t as { header: { sequence_number: number } }).header.sequence_number;

describe('a header-cursor listing answers its items and the header’s cursor', () => {
  it.each([
    ['the header absent on the last page (documented)', false],
    ['the header empty on the last page (live)', true],
  ])('%s', async (_, liveEnds) => {
    const node = await v3Node({ liveEnds });
    const t = http({ baseUrl: node.url });
    const first = await listModulesV3(t, '0x1', { count: 2 });
    expect(first).toEqual({ items: [{ bytecode: '0x00', abi: { name: 'alpha' } }, { bytecode: '0x00', abi: { name: 'beta' } }], cursor: '2' });
    expect(await listModulesV3(t, '0x1', { count: 2, start: '4' })).toEqual({ items: [{ bytecode: '0x00', abi: { name: 'epsilon' } }], cursor: undefined });
    expect((await collect(createNodeClient({ baseUrl: node.url }).v3.modules('0x1', { pageSize: 2 }))).map((m) => m.abi.name)).toEqual(MODULES);
  });

  it('coin transactions: `start` is the cursor, exclusive; ascending is sent only when asked', async () => {
    const node = await v3Node();
    const t = http({ baseUrl: node.url });
    const page = await listCoinTransactionsV3(t, '0x1', { count: 3, ascending: true, start: 5 });
    expect(page.items.map(seqOf)).toEqual([6, 7, 8]);
    expect(page.cursor).toBe('8');
    expect(node.requests.at(-1)!.search).toBe('?count=3&start=5&ascending=true');
  });
});

describe('v3 walks', () => {
  it('transactions ascending, concurrently: every item once, in order, each page asked ascending from its start', async () => {
    const node = await v3Node();
    const items = await collect(walkTransactionsV3(http({ baseUrl: node.url }), '0x1', { pageSize: 20, concurrency: 6 }));
    expect(items.map(seqOf)).toEqual(range(0, TOTAL));
    expect(node.requests.every((u) => u.searchParams.get('ascending') === 'true')).toBe(true);
  });

  it('transactions newest first, concurrently: the newest page as the node orders it, then windows below', async () => {
    const node = await v3Node();
    const items = await collect(walkTransactionsV3(http({ baseUrl: node.url }), '0x1', { order: 'desc', pageSize: 30, concurrency: 4 }));
    expect(items.map(seqOf)).toEqual(range(0, TOTAL).reverse());
    expect(node.requests[0]!.searchParams.has('ascending')).toBe(false);
  });

  it.each(['asc', 'desc'] as const)('coin transactions %s follow the header cursor to the end, filtered by type', async (order) => {
    const node = await v3Node({ liveEnds: true });
    const items = await collect(walkCoinTransactionsV3(http({ baseUrl: node.url }), '0x1', { order, pageSize: 4, type: 'auto', concurrency: 2 }));
    const autos = range(1, COINS + 1).filter((c) => c % 3 === 0);
    expect(items.map(seqOf)).toEqual(order === 'asc' ? autos : autos.reverse());
    expect(node.requests.every((u) => u.searchParams.get('type') === 'auto' && (u.searchParams.get('ascending') === 'true') === (order === 'asc'))).toBe(true);
  });

  it('automated transactions page by `cursor`', async () => {
    const node = await v3Node();
    const items = await collect(createNodeClient({ baseUrl: node.url }).v3.automatedTransactions('0x1', { order: 'asc', pageSize: 10 }));
    expect(items).toHaveLength(COINS);
    expect(node.requests.slice(1).every((u) => u.searchParams.has('cursor') && !u.searchParams.has('start'))).toBe(true);
  });
});

describe('bad input is refused before any request, naming the parameter', () => {
  it.each([
    ['ascending not a boolean', 'ascending', (url: string) => listCoinTransactionsV3(http({ baseUrl: url }), '0x1', { ascending: 'yes' as unknown as boolean })],
    ['a type outside the four', 'type', (url: string) => listCoinTransactionsV3(http({ baseUrl: url }), '0x1', { type: 'all' as 'user' })],
    ['a malformed cursor', 'start', (url: string) => listCoinTransactionsV3(http({ baseUrl: url }), '0x1', { start: 'abc' })],
    ['block_height and cursor together', 'block_height', (url: string) => listAutomatedTransactionsV3(http({ baseUrl: url }), '0x1', { cursor: '5', block_height: 7 })],
  ])('%s', async (_, parameter, call) => {
    const node = await v3Node();
    await expectInvalid(call(node.url), parameter);
    expect(node.requests).toHaveLength(0);
  });

  it.each([256, -1, 1.5, '8'])('a chainId of %s', (chainId) => {
    expect(() => createNodeClient({ chainId } as NodeClientOptions)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', parameter: 'chainId' }));
  });
});

describe('chain identity', () => {
  it('an answer of another chain is a ChainIdMismatchError naming both ids; without the header it is taken', async () => {
    const testnet = await v3Node({ chainId: 6 });
    const err = await rejectionOf(createNodeClient({ baseUrl: testnet.url, chainId: 8 }).v3.getAccount('0x1'));
    expect(err).toBeInstanceOf(ChainIdMismatchError);
    expect(err).toMatchObject({ code: 'CHAIN_ID_MISMATCH', expected: 8, received: 6, name: 'ChainIdMismatchError' });
    const proxy = await v3Node({ chainId: undefined });
    await expect(createNodeClient({ baseUrl: proxy.url, chainId: 8 }).v3.getAccount('0x1')).resolves.toMatchObject({ sequence_number: 7 });
    await expect(createNodeClient({ baseUrl: testnet.url, chainId: NETWORKS.testnet.chainId }).v3.getAccount('0x1')).resolves.toMatchObject({ sequence_number: 7 });
  });

  it('with several nodes, the call moves past a node of another chain', async () => {
    const wrong = await v3Node({ chainId: 6 });
    const right = await v3Node({ chainId: 8 });
    await expect(createNodeClient({ baseUrl: [wrong.url, right.url], chainId: 8 }).v3.getAccount('0x1')).resolves.toMatchObject({ sequence_number: 7 });
    expect(wrong.requests).toHaveLength(1);
  });
});

describe('pruned history', () => {
  it('a 410 is a HistoryPrunedError carrying the oldest block', async () => {
    const pruned = await v3Node({ oldest: 100 });
    const err = await rejectionOf(createNodeClient({ baseUrl: pruned.url }).v3.listTransactions('0x1', { start: 0, ascending: true, count: 10 }));
    expect(err).toBeInstanceOf(HistoryPrunedError);
    expect(err).toMatchObject({ code: 'HISTORY_PRUNED', status: 410, oldestBlock: 1234n, name: 'HistoryPrunedError' });
  });

  it('with several nodes a walk moves on to the node that keeps the history; when all pruned it, the caller gets the error', async () => {
    const pruned = await v3Node({ oldest: 100 });
    const archive = await v3Node();
    const items = await collect(walkTransactionsV3(fallback({ baseUrl: [pruned.url, archive.url] }), '0x1', { pageSize: 50 }));
    expect(items.map(seqOf)).toEqual(range(0, TOTAL));
    const other = await v3Node({ oldest: 50 });
    const err = await rejectionOf(collect(walkTransactionsV3(fallback({ baseUrl: [pruned.url, other.url] }), '0x1', { pageSize: 50 })));
    expect(err).toBeInstanceOf(HistoryPrunedError);
  });
});
