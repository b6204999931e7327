/**
 * The reads beyond accounts over a loopback node of the test's own that answers as the node's served
 * document and real nodes do: a transaction by hash, blocks by height (404 above the latest, 410 below
 * the oldest kept), events by type paged by `x-supra-cursor` (sent on the last page too), view calls and
 * table items as POSTs of JSON, and the node's plain facts. What each read sends is recorded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createNodeClient,
  getEventProofsV4,
  getTableItemV2,
  HistoryPrunedError,
  http,
  listEventsV3,
  ResponseShapeError,
  TransactionWaitTimeoutError,
  viewV3,
  waitForTransaction,
  walkBlocksV3,
  walkEventsV3,
  type Caller,
} from '@x/node-client';
import { collect, expectInvalid, rejectionOf } from '@x-tools/test-helpers';

const LATEST = 40;
const OLDEST = 10;
const hex = (n: number, width = 64): string => `0x${n.toString(16).padStart(width, '0')}`;
const header = (h: number) => ({ author: hex(1), hash: hex(1000 + h), height: h, parent: hex(999 + h), timestamp: { timestamp: 1_700_000_000_000_000 + h }, view: { epoch_id: { chain_id: 6, epoch: 1 }, round: h } });
/** Events of `0x1::coin::CoinDeposit`: three per block from height 10 to 39, by (height, index). */
const EVENTS = Array.from({ length: 90 }, (_, i) => ({ height: OLDEST + Math.floor(i / 3), index: i % 3 }));
const event = (e: { height: number; index: number }) => ({
  event: { guid: { creation_number: '2', account_address: '0x1' }, sequence_number: String(e.height * 3 + e.index), type: '0x1::coin::CoinDeposit', data: { amount: '1' } },
  block_height: e.height,
  transaction_hash: hex(e.height),
});

type Seen = { method: string; url: URL; body: string; contentType: string | undefined };
/** `oldest` is the lowest height the node keeps (a test may prune further mid-walk). */
let node: { url: string; seen: Seen[]; polls: number; oldest: number };
let server: Server;

function handle(req: IncomingMessage, res: ServerResponse, body: string): void {
  const url = new URL(req.url!, 'http://x');
  node.seen.push({ method: req.method!, url, body, contentType: req.headers['content-type'] });
  const send = (status: number, value: unknown, extra: Record<string, string> = {}): void => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-supra-chain-id': '6', ...extra });
    res.end(JSON.stringify(value));
  };
  const q = url.searchParams;
  const p = url.pathname;
  if (p === '/rpc/v3/block') return send(200, { header: header(LATEST), execution_statistics: null });
  let m = /^\/rpc\/v3\/block\/height\/(\d+)$/.exec(p);
  if (m) {
    const h = Number(m[1]);
    if (h > LATEST) return send(404, { message: 'not found' });
    if (h < node.oldest) return send(410, { message: 'pruned' }, { 'x-supra-oldest-block': String(node.oldest) });
    // Height 33 answers another block's height: a node that lies.
    return send(200, { header: header(h === 33 && q.get('type') === 'meta' ? 34 : h), transactions: q.get('with_finalized_transactions') === 'true' ? [] : null });
  }
  m = /^\/rpc\/v3\/transactions\/(0x[0-9a-f]{64})$/.exec(p);
  if (m) {
    node.polls++;
    // Unknown for two polls, pending for two, then final.
    if (node.polls <= 2) return send(404, { message: 'not found' });
    return send(200, { txn_type: 'user', hash: m[1], status: node.polls <= 4 ? 'Pending' : 'Success' });
  }
  m = /^\/rpc\/v3\/events\/([^/]+)$/.exec(p);
  if (m) {
    const limit = Number(q.get('limit') ?? 20);
    const from = Number(q.get('start_height') ?? 0);
    const to = Number(q.get('end_height') ?? Infinity);
    const inRange = EVENTS.filter((e) => e.height >= from && e.height < to);
    const after = q.get('start');
    const i = after === null ? 0 : inRange.findIndex((e) => `c${e.height}-${e.index}` === after) + 1;
    const page = inRange.slice(i, i + limit);
    const last = page.at(-1) ?? inRange.at(-1);
    // The cursor names the last event returned, on the last page too (as real nodes send it).
    return send(200, { data: page.map(event) }, last ? { 'x-supra-cursor': `c${last.height}-${last.index}` } : {});
  }
  if (p === '/rpc/v3/view') {
    const call = JSON.parse(body) as { function: string; type_arguments: unknown[]; arguments: unknown[] };
    if (call.function === '0x1::coin::balance') return send(200, { result: ['799817600'] });
    if (call.function === '0x1::timestamp::now_microseconds') return send(200, { result: ['1700000000000000'] });
    return send(400, { message: `function ${call.function} not found` });
  }
  if (/^\/rpc\/v2\/tables\/0x[0-9a-f]+\/item$/.test(p)) return send(200, { U64: '42' });
  if (p === '/rpc/v1/transactions/chain_id') return send(200, 6);
  if (p === '/rpc/v1/transactions/parameters') return send(200, { max_transaction_time_to_live_seconds: 300 });
  if (p === '/rpc/v3/transactions/estimate_gas_price') return send(200, { mean_gas_price: 100, max_gas_price: 200, median_gas_price: 100, min_configured_gas_price: 100 });
  if (p === '/rpc/v3/version') return send(200, { version: '11.5.2', branch: 'main', commit_hash: 'abc', build_time: 'now', build_env: 'rustc' });
  send(404, { message: 'no such path' });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => handle(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  node = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen: [], polls: 0, oldest: OLDEST };
});
afterAll(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));

const transport = (): Caller => http({ baseUrl: node.url, retry: false });
const reset = (): void => {
  node.seen.length = 0;
  node.polls = 0;
  node.oldest = OLDEST;
};

describe('POST reads: view and table item', () => {
  it('sends the view call as JSON with the defaults filled in, and types the result by the function', async () => {
    reset();
    const now = await viewV3(transport(), { function: '0x1::timestamp::now_microseconds' });
    const micros: string = now.result[0];
    expect(micros).toBe('1700000000000000');
    const seen = node.seen[0]!;
    expect(seen).toMatchObject({ method: 'POST', contentType: 'application/json' });
    expect(JSON.parse(seen.body)).toEqual({ function: '0x1::timestamp::now_microseconds', type_arguments: [], arguments: [] });
  });

  it("sends the body's own content type, whatever the headers option says", async () => {
    reset();
    await viewV3(http({ baseUrl: node.url, headers: { 'content-type': 'text/plain' } }), { function: '0x1::timestamp::now_microseconds' });
    expect(node.seen[0]!.contentType).toBe('application/json');
  });

  it('sends bigint arguments as decimal strings, and a failing function is the node 400', async () => {
    reset();
    const err = await rejectionOf(viewV3(transport(), { function: '0xabc::m::f', arguments: [2n ** 64n - 1n, true] }));
    expect(JSON.parse(node.seen[0]!.body).arguments).toEqual(['18446744073709551615', true]);
    expect(err).toMatchObject({ code: 'HTTP_ERROR', status: 400, message: expect.stringContaining('function 0xabc::m::f not found') });
  });

  it('sends a proofs batch, whose items are objects (not text), as JSON; an item of another kind is refused naming it', async () => {
    reset();
    const item = { transaction_hash: hex(12), event_types: ['0x1::coin::CoinDeposit'] };
    // The test node has no proofs route: its 404 answers, after the request was sent as given.
    expect(await rejectionOf(getEventProofsV4(transport(), { items: [item] }))).toMatchObject({ code: 'HTTP_ERROR', status: 404 });
    expect(JSON.parse(node.seen[0]!.body)).toEqual({ items: [item] });
    await expectInvalid(getEventProofsV4(transport(), { items: 'all' as never }), 'items');
    expect(node.seen).toHaveLength(1);
  });

  it('node.v3 has the view, the table item, and the reads no newer version replaces', async () => {
    reset();
    const node3 = createNodeClient({ baseUrl: node.url }).v3;
    const balance = await node3.view({ function: '0x1::coin::balance', type_arguments: ['0x1::supra_coin::SupraCoin'], arguments: ['0x1'] });
    expect(balance.result).toEqual(['799817600']);
    expect(await node3.getTableItem('0xabc', { key_type: 'u64', value_type: 'u64', key: '12' })).toEqual({ U64: '42' });
    expect(JSON.parse(node.seen[1]!.body)).toEqual({ key_type: 'u64', value_type: 'u64', key: '12' });
    expect(await node3.getChainId()).toBe(6);
    expect(await node3.getTransactionParameters()).toEqual({ max_transaction_time_to_live_seconds: 300 });
    expect((await node3.estimateGasPrice()).median_gas_price).toBe(100);
    expect((await node3.getVersion()).version).toBe('11.5.2');
    expect((await node3.getLatestBlock()).header.height).toBe(LATEST);
  });
});

describe('events by type', () => {
  it('one page answers its events and the cursor of the next', async () => {
    reset();
    const page = await listEventsV3(transport(), '0x1::coin::CoinDeposit', { limit: 4, start_height: 12 });
    expect(page.items.map((e) => [e.block_height, e.event.sequence_number])).toEqual([[12, '36'], [12, '37'], [12, '38'], [13, '39']]);
    expect(page.cursor).toBe('c13-0');
  });

  it.each([1, 4])('walks a height range exactly, page after page, until an empty page (concurrency %i)', async (concurrency) => {
    reset();
    const events = await collect(walkEventsV3(transport(), '0x1::coin::CoinDeposit', { start_height: 15, end_height: 25, pageSize: 7, concurrency }));
    expect(events.map((e) => e.event.sequence_number)).toEqual(EVENTS.filter((e) => e.height >= 15 && e.height < 25).map((e) => String(e.height * 3 + e.index)));
    // 30 events in pages of 7: five pages, then the empty page after the last cursor.
    expect(node.seen).toHaveLength(6);
    for (const s of node.seen) expect(Object.fromEntries(s.url.searchParams)).toMatchObject({ start_height: '15', end_height: '25', limit: '7' });
  });

  it('stops at its limit, and node.v3.events is the same walk', async () => {
    reset();
    const first = await collect(createNodeClient({ baseUrl: node.url }).v3.events('0x1::coin::CoinDeposit', { limit: 5 }));
    expect(first.map((e) => e.block_height)).toEqual([10, 10, 10, 11, 11]);
  });
});

describe('blocks over a range of heights', () => {
  it.each([
    ['asc', 1],
    ['asc', 8],
    ['desc', 1],
    ['desc', 8],
  ] as const)('%s with concurrency %i: every height once, in order', async (order, concurrency) => {
    reset();
    const blocks = await collect(walkBlocksV3(transport(), { start_height: 20, end_height: 32, order, concurrency }));
    const heights = Array.from({ length: 12 }, (_, i) => 20 + i);
    expect(blocks.map((b) => b.header.height)).toEqual(order === 'asc' ? heights : heights.reverse());
    expect(node.seen).toHaveLength(12);
  });

  it('without an end, reads the latest block first; newest first it ends with the error where the node has pruned, after every block it keeps', async () => {
    reset();
    const seen: number[] = [];
    const err = await rejectionOf(
      (async () => {
        for await (const b of createNodeClient({ baseUrl: node.url, retry: false }).v3.blocks({ order: 'desc', concurrency: 4 })) seen.push(b.header.height);
      })(),
    );
    expect(seen).toEqual(Array.from({ length: LATEST - OLDEST + 1 }, (_, i) => LATEST - i));
    expect(err).toMatchObject({ code: 'HISTORY_PRUNED', oldestBlock: BigInt(OLDEST) });
    expect(node.seen[0]!.url.pathname).toBe('/rpc/v3/block');
  });

  it("with history: 'kept', newest first ends where the node has pruned", async () => {
    reset();
    const blocks = await collect(createNodeClient({ baseUrl: node.url, retry: false }).v3.blocks({ order: 'desc', concurrency: 4, history: 'kept' }));
    expect(blocks.map((b) => b.header.height)).toEqual(Array.from({ length: LATEST - OLDEST + 1 }, (_, i) => LATEST - i));
  });

  it("ascending from the default start: the pruned blocks are the error; with history: 'kept', the walk moves up to the oldest block kept", async () => {
    reset();
    const err = await rejectionOf(collect(walkBlocksV3(transport(), { end_height: 14, concurrency: 3 })));
    expect(err).toMatchObject({ code: 'HISTORY_PRUNED', oldestBlock: BigInt(OLDEST) });
    const blocks = await collect(walkBlocksV3(transport(), { end_height: 14, concurrency: 3, history: 'kept' }));
    expect(blocks.map((b) => b.header.height)).toEqual([10, 11, 12, 13]);
  });

  it('from a start below the pruned history, is the 410 with the oldest block', async () => {
    const err = await rejectionOf(collect(walkBlocksV3(transport(), { start_height: 5, end_height: 14 })));
    expect(err).toBeInstanceOf(HistoryPrunedError);
    expect(err).toMatchObject({ code: 'HISTORY_PRUNED', oldestBlock: BigInt(OLDEST) });
  });

  it('sends the query options with every height, and refuses an answer for another height', async () => {
    reset();
    const err = await rejectionOf(collect(walkBlocksV3(transport(), { start_height: 32, end_height: 35, type: 'meta', with_finalized_transactions: true })));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err).toMatchObject({ code: 'RESPONSE_SHAPE_ERROR', path: '/header/height' });
    expect(Object.fromEntries(node.seen[0]!.url.searchParams)).toEqual({ type: 'meta', with_finalized_transactions: 'true' });
  });

  it('a node that prunes what the walk is in the middle of is the 410, not a skip', async () => {
    reset();
    const seen: number[] = [];
    const err = await rejectionOf(
      (async () => {
        for await (const block of walkBlocksV3(transport(), { end_height: 20, history: 'kept' })) {
          seen.push(block.header.height);
          node.oldest = 15; // pruned below 15 now: 11 to 14 are gone
        }
      })(),
    );
    expect(seen).toEqual([10]);
    expect(err).toBeInstanceOf(HistoryPrunedError);
    expect(err).toMatchObject({ oldestBlock: 15n });
  });

  it("hands out nothing after the caller's abort, though answers fetched ahead had arrived", async () => {
    reset();
    const controller = new AbortController();
    const seen: number[] = [];
    const err = await rejectionOf(
      (async () => {
        for await (const block of walkBlocksV3(transport(), { start_height: 20, end_height: 30, concurrency: 4, signal: controller.signal })) {
          seen.push(block.header.height);
          await new Promise((resolve) => setTimeout(resolve, 50)); // the heights ahead answer meanwhile
          controller.abort(new Error('user left'));
        }
      })(),
    );
    expect(seen).toEqual([20]);
    expect(err).toMatchObject({ message: 'user left' });
  });

  it('a break cancels the heights fetched ahead', async () => {
    reset();
    for await (const block of walkBlocksV3(transport(), { start_height: 10, end_height: 40, concurrency: 4 })) if (block.header.height === 11) break;
    expect(node.seen.length).toBeLessThanOrEqual(6);
  });
});

describe('waitForTransaction', () => {
  const hash = hex(77);

  it('polls through not-found and pending until the transaction is final', async () => {
    reset();
    const tx = await waitForTransaction(transport(), hash, { pollIntervalMs: 50, maxPollIntervalMs: 50 });
    expect(tx).toMatchObject({ hash, status: 'Success' });
    expect(node.polls).toBe(5);
  });

  it('past its deadline, is a TransactionWaitTimeoutError naming the hash, the wait and the last status', async () => {
    reset();
    const err = await rejectionOf(createNodeClient({ baseUrl: node.url, retry: false }).waitForTransaction(hash, { timeoutMs: 300, pollIntervalMs: 50 }));
    expect(err).toBeInstanceOf(TransactionWaitTimeoutError);
    expect(err).toMatchObject({ code: 'TRANSACTION_WAIT_TIMEOUT', hash, lastStatus: 'Pending' });
    expect((err as TransactionWaitTimeoutError).waitedMs).toBeGreaterThanOrEqual(300);
  });

  it("ends at once on the caller's abort", async () => {
    reset();
    const controller = new AbortController();
    const waiting = waitForTransaction(transport(), hash, { pollIntervalMs: 1_000, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 20);
    await expect(waiting).rejects.toThrow('user left');
  });
});

describe('bad input is refused before any request, naming the parameter', () => {
  const t = (): Caller => transport();
  it.each([
    ['hash', () => waitForTransaction(t(), '0x123')],
    ['hash', () => createNodeClient({ baseUrl: node.url }).v3.getTransaction('not-a-hash')],
    ['block_hash', () => createNodeClient({ baseUrl: node.url }).v3.getBlock('0xzz')],
    ['height', () => createNodeClient({ baseUrl: node.url }).v3.getBlockByHeight(-1)],
    ['height', () => createNodeClient({ baseUrl: node.url }).v3.getBlockByHeight(1.5)],
    ['event_type', () => listEventsV3(t(), 'coin::CoinDeposit')],
    ['limit', () => listEventsV3(t(), '0x1::coin::CoinDeposit', { limit: 101 })],
    ['end_height', () => listEventsV3(t(), '0x1::coin::CoinDeposit', { start_height: 20, end_height: 10 })],
    ['end_height', () => collect(walkEventsV3(t(), '0x1::coin::CoinDeposit', { start_height: 20, end_height: 10 }))],
    ['end_height', () => collect(walkBlocksV3(t(), { start_height: 20, end_height: 10 }))],
    ['start_height', () => collect(walkBlocksV3(t(), { start_height: -1 }))],
    ['pageSize', () => collect(walkBlocksV3(t(), { pageSize: 5 } as never))],
    ['type', () => collect(walkBlocksV3(t(), { type: 'bogus' as never }))],
    ['with_finalized_transactions', () => collect(walkBlocksV3(t(), { with_finalized_transactions: 'yes' as never }))],
    ['body', () => t().call('viewV3', { method: 'POST', path: '/rpc/v3/view', params: [], body: [] }, {})],
    ['function', () => viewV3(t(), { function: 'balance' })],
    ['type_arguments[0]', () => viewV3(t(), { function: '0x1::coin::balance', type_arguments: ['Coin'] as never, arguments: ['0x1'] })],
    ['type_arguments', () => viewV3(t(), { function: '0x1::m::f', type_arguments: 'u64' as never })],
    ['functon', () => viewV3(t(), { functon: '0x1::m::f' } as never)],
    ['request', () => viewV3(t(), null as never)],
    ['table_handle', () => getTableItemV2(t(), 'handle', { key_type: 'u64', value_type: 'u64', key: '1' })],
    ['key_type', () => getTableItemV2(t(), '0xabc', { key_type: 'u65', value_type: 'u64', key: '1' })],
    ['key', () => getTableItemV2(t(), '0xabc', { key_type: 'u64', value_type: 'u64' } as never)],
    ['timeoutMs', () => waitForTransaction(t(), hex(1), { timeoutMs: 0 })],
  ])('%s', async (parameter, call) => {
    reset();
    await expectInvalid(call(), parameter);
    expect(node.seen).toHaveLength(0);
  });
});

describe('query options of the reads', () => {
  it('a view query sends its body, keys on it (a bigint as text), and answers as the call does', async () => {
    const { QueryClient } = await import('@tanstack/query-core');
    const { createNodeQueries } = await import('@x/node-client/query');
    reset();
    const client = createNodeClient({ baseUrl: node.url, retry: false });
    const queries = createNodeQueries(client);
    const qc = new QueryClient({ defaultOptions: { queries: { gcTime: Infinity, retry: false } } });
    const options = queries.v3.view({ function: '0x1::coin::balance', type_arguments: ['0x1::supra_coin::SupraCoin'], arguments: ['0x1'] });
    expect(options.queryKey.at(-1)).toEqual({ body: { function: '0x1::coin::balance', type_arguments: ['0x1::supra_coin::SupraCoin'], arguments: ['0x1'] } });
    const answer = await qc.fetchQuery(options);
    const balance: string = answer.result[0];
    expect(balance).toBe('799817600');
    expect(node.seen[0]).toMatchObject({ method: 'POST', contentType: 'application/json' });
    expect(queries.v3.view({ function: '0xabc::m::f', arguments: [5n] }).queryKey.at(-1)).toEqual({ body: { function: '0xabc::m::f', arguments: ['5'] } });
    await expectInvalid(qc.fetchQuery(queries.v3.view({ function: 'nope' })), 'function');
    qc.clear();
  });

  it('a key holds a u64 in decimal, whatever form it came in, and hashes as JSON', async () => {
    const { hashKey } = await import('@tanstack/query-core');
    const { createNodeQueries } = await import('@x/node-client/query');
    const queries = createNodeQueries(createNodeClient({ baseUrl: node.url }));
    const keys = [5, 5n, '5'].map((h) => hashKey(queries.v3.getBlockByHeight(h).queryKey));
    expect(new Set(keys).size).toBe(1);
    const events = [20, 20n, '20'].map((h) => hashKey(queries.v3.events('0x1::coin::CoinDeposit', { start_height: h, end_height: 30n }).queryKey));
    expect(new Set(events).size).toBe(1);
    expect(events[0]).toContain('"end_height":"30"');
    expect(events[0]).toContain('"start_height":"20"');
  });

  it('the events infinite query pages as the walk does, its heights in the key and on every page', async () => {
    const { QueryClient, InfiniteQueryObserver } = await import('@tanstack/query-core');
    const { createNodeQueries } = await import('@x/node-client/query');
    reset();
    const queries = createNodeQueries(createNodeClient({ baseUrl: node.url, retry: false }));
    const qc = new QueryClient({ defaultOptions: { queries: { gcTime: Infinity, retry: false } } });
    const options = queries.v3.events('0x1::coin::CoinDeposit', { start_height: 20, end_height: 23, pageSize: 4 });
    expect(options.queryKey.at(-1)).toMatchObject({ start_height: '20', end_height: '23', pageSize: 4 });
    const observer = new InfiniteQueryObserver(qc, options);
    let result = await observer.fetchNextPage();
    while (result.hasNextPage) result = await observer.fetchNextPage();
    const items = result.data!.pages.flatMap((p) => p.items);
    expect(items.map((e) => e.event.sequence_number)).toEqual(EVENTS.filter((e) => e.height >= 20 && e.height < 23).map((e) => String(e.height * 3 + e.index)));
    for (const s of node.seen) expect(Object.fromEntries(s.url.searchParams)).toMatchObject({ start_height: '20', end_height: '23', limit: '4' });
    qc.clear();
  });
});
