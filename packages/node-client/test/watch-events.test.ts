/**
 * watchEvents over real loopback WebSockets. Against the fake node: the same events as its own index
 * (`walkEventsV3`) from a past height, a type in another spelling, polling, `break`, bad input. The fake's
 * new blocks hold no events (its transactions are all in its seeded past), so the live side runs against a
 * chain of the test's own (REST and `/rpc/v4/ws`) whose every block emits events: every event once and in
 * order across the seam of `fromHeight`, a drop and a disabled WebSocket. Blocks are made by the test, one
 * per event read: nothing waits on a timer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { createNodeClient, listEventsV3, watchEvents, type WatchEvent } from '@x/node-client';
import { startNodeStub, type NodeStubHandle } from '@x/testing';
import { expectInvalid } from '@x-tools/test-helpers';

const fast = { reconnect: { baseDelayMs: 1 }, pollIntervalMs: 1 } as const;
const SWAP = '0x0000000000000000000000000000000000000000000000000000000000000002::pool::Swap<0x1::supra_coin::SupraCoin, 0x3::usd::USD>';

/** A chain of the test's own: block h holds two user transactions, the first emitting 1 + h % 2 Swap events and a deposit, the second one Swap; and a metadata transaction. */
async function startEventChain(start: number) {
  const hash = (h: number): string => `0x${h.toString(16).padStart(64, '0')}`;
  const event = (type: string, data: object) => ({ guid: { creation_number: '1', account_address: '0x2' }, sequence_number: '0', type, data, hash: hash(1e9) });
  const block = (h: number, withTransactions: boolean) => ({
    header: { height: h, hash: hash(h), parent: hash(h - 1), timestamp: { microseconds_since_unix_epoch: h * 1e6, utc_date_time: '' }, author: hash(0), block_hash: hash(h) },
    transactions: withTransactions
      ? [
          { txn_type: 'user', hash: hash(2 * h), output: { Move: { gas_used: 1, vm_status: 'ok', events: [...Array.from({ length: 1 + (h % 2) }, (_, i) => event(SWAP, { h, i })), event('0x1::coin::DepositEvent', { h })] } } },
          { txn_type: 'user', hash: hash(2 * h + 1), output: { Move: { gas_used: 1, vm_status: 'ok', events: [event(SWAP, { h, i: 2 })] } } },
          { txn_type: 'block_metadata', hash: hash(3 * h), output: 'Empty' },
        ]
      : null,
  });
  let latest = start;
  let disabled = false;
  const subscribers = new Set<WebSocket>();
  let blockReads = 0;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://chain');
    const at = /^\/rpc\/v4\/block\/height\/(\d+)$/.exec(url.pathname);
    const body = url.pathname === '/rpc/v3/block' ? block(latest, false) : at && Number(at[1]) <= latest ? (blockReads++, block(Number(at[1]), url.searchParams.get('with_finalized_transactions') === 'true')) : undefined;
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? { message: 'not found' }));
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (disabled) return void socket.end('HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('message', (data) => {
        const msg = JSON.parse(String(data)) as { id: number };
        subscribers.add(ws);
        ws.send(JSON.stringify({ jsonrpc: '2.0', result: '0x1', id: msg.id }));
      });
      ws.on('close', () => subscribers.delete(ws));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get blockReads() {
      return blockReads;
    },
    set disabled(value: boolean) {
      disabled = value;
    },
    /** Makes `count` blocks and pushes them to every subscriber. */
    produce(count = 1) {
      for (let i = 0; i < count; i++) {
        latest++;
        const text = JSON.stringify({ jsonrpc: '2.0', method: 'supra_subscription', params: { subscription: '0x1', result: block(latest, true) } });
        for (const ws of subscribers) ws.send(text);
      }
    },
    /** Drops every connection (no close frame). */
    drop: () => {
      for (const ws of subscribers) ws.terminate();
      subscribers.clear();
    },
    close: () => new Promise<void>((resolve) => {
      for (const ws of wss.clients) ws.terminate();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The Swap events of heights `from`.. as the chain emits them, `count` of them. */
function swaps(from: number, count: number): { h: number; i: number }[] {
  const out: { h: number; i: number }[] = [];
  for (let h = from; out.length < count; h++) {
    for (let i = 0; i <= h % 2; i++) out.push({ h, i });
    out.push({ h, i: 2 });
  }
  return out.slice(0, count);
}

describe('watchEvents, live', () => {
  let chain: Awaited<ReturnType<typeof startEventChain>>;
  beforeAll(async () => {
    chain = await startEventChain(100);
  });
  afterAll(() => chain.close());

  /** The first `count` events' data a watch yields, making a block after each block's last one is read; `each(i)` runs after the i-th. */
  async function take(events: AsyncIterable<{ event: { data: unknown }; block_height: number }>, count: number, each: (i: number) => void = () => undefined) {
    const out: unknown[] = [];
    for await (const { event, block_height } of events) {
      expect((event.data as { h: number }).h).toBe(block_height);
      out.push(event.data);
      if (out.length === count) break;
      each(out.length);
      if ((event.data as { i: number }).i === 2) chain.produce(1);
    }
    return out;
  }

  it('every event once and in order: the past from REST, then live, across a drop; the type in any spelling', async () => {
    const events: WatchEvent[] = [];
    const reads = chain.blockReads;
    // Addresses written otherwise, and no space in the type arguments: the same type.
    const type = '0x2::pool::Swap<0x0001::supra_coin::SupraCoin,03::usd::USD>';
    const got = await take(watchEvents(createNodeClient({ baseUrl: chain.url }).transport, type, { fromHeight: 96, onEvent: (e) => events.push(e), ...fast }), 40, (i) => {
      if (i === 12) {
        chain.drop();
        chain.produce(4); // made while no one listens: the reconnect's gap, from REST
      }
    });
    expect(got).toEqual(swaps(96, 40));
    expect(events.filter((e) => e.type === 'reconnect')).toHaveLength(1);
    // The stream brought some: fewer REST block reads than blocks.
    expect(chain.blockReads - reads).toBeLessThan(got.length / 2);
  });

  it('polls where the WebSocket is disabled, with the same events', async () => {
    chain.disabled = true;
    const events: WatchEvent[] = [];
    try {
      const node = createNodeClient({ baseUrl: chain.url });
      const got = await take(node.watchEvents(SWAP, { fromHeight: 103, onEvent: (e) => events.push(e), ...fast }), 12);
      expect(got).toEqual(swaps(103, 12));
    } finally {
      chain.disabled = false;
    }
    expect(events[0]).toMatchObject({ type: 'polling', error: { status: 503 } });
  });
});

describe('watchEvents, against the fake node', () => {
  let stub: NodeStubHandle;
  beforeAll(async () => {
    stub = await startNodeStub({ now: () => Date.UTC(2024, 10, 20) });
  });
  afterAll(() => stub.close());

  it('gives the events the node lists by type, in its order, and break closes the socket', async () => {
    const node = createNodeClient({ baseUrl: stub.url });
    // One page of the node's own index (building it costs the fake a second: one page only); its last height may go on past it.
    const { items: listed } = await listEventsV3(node.transport, '0x1::coin::DepositEvent', { limit: 100 });
    const last = (listed.at(-1) as (typeof listed)[number]).block_height;
    const from = (listed.at(-30) as (typeof listed)[number]).block_height;
    const expected = listed.filter((e) => e.block_height >= from && e.block_height < last);
    expect(expected.length).toBeGreaterThan(10);
    const got = [];
    for await (const item of node.watchEvents('0x0001::coin::DepositEvent', { fromHeight: from, ...fast })) {
      got.push(item);
      if (got.length === expected.length) break;
    }
    expect(got.map((e) => [e.block_height, e.transaction_hash, e.event.type, e.event.guid, e.event.sequence_number, e.event.data])).toEqual(
      expected.map((e) => [e.block_height, e.transaction_hash, e.event.type, e.event.guid, e.event.sequence_number, e.event.data]),
    );
    while (stub.stream.connections > 0) await new Promise((resolve) => setImmediate(resolve));
    expect(stub.stream.connections).toBe(0);
  });

  it.each([
    ['eventType', '0x1::coin', undefined],
    ['eventType', 42, undefined],
    ['fromHeight', '0x1::coin::DepositEvent', -1],
    ['fromHeight', '0x1::coin::DepositEvent', 1.5],
  ])('refuses a bad %s (%s, %s) before any connection', async (name, type, fromHeight) => {
    stub.reset();
    const before = stub.stream.connections;
    const node = createNodeClient({ baseUrl: stub.url });
    expect(() => watchEvents(node.transport, type as string, { fromHeight: fromHeight as never })).toThrow(new RegExp(`'${name}'`));
    await expectInvalid(node.watchEvents(type as string, { fromHeight: fromHeight as never })[Symbol.asyncIterator]().next(), name);
    expect(stub.requests).toHaveLength(0);
    expect(stub.stream.connections).toBe(before);
  });
});
