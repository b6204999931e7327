/**
 * watchBlocks over real loopback WebSockets against the fake node (its clock fixed; blocks made by
 * `stub.stream.produce`, one per block the test reads, so nothing waits on a timer): every height exactly
 * once and in order across the seam of `fromHeight`, drops, refusals, garbage, oversized frames, a slow
 * consumer and a disabled WebSocket; `break` closes the socket; bad input is refused before any connection.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { ChainIdMismatchError, createNodeClient, HttpError, watchBlocks, type WatchEvent } from '@x/node-client';
import { startNodeStub, type NodeStubHandle } from '@x/testing';
import { expectInvalid, rejectionOf } from '@x-tools/test-helpers';

const NOW = Date.UTC(2024, 10, 20);
let stub: NodeStubHandle;
beforeAll(async () => {
  stub = await startNodeStub({ now: () => NOW });
});
afterAll(() => stub.close());

const fast = { reconnect: { baseDelayMs: 1 }, pollIntervalMs: 1 } as const;
const latest = async (): Promise<number> => ((await (await fetch(`${stub.url}/rpc/v3/block`)).json()) as { header: { height: number } }).header.height;

/** The first `count` heights a watch yields, making a block after each one read; `each(i)` runs after the i-th. */
async function heights(blocks: AsyncIterable<{ height: number } | { header: { height: number } }>, count: number, each: (i: number) => void = () => undefined): Promise<number[]> {
  const out: number[] = [];
  for await (const block of blocks) {
    out.push('header' in block ? block.header.height : block.height);
    if (out.length === count) break;
    each(out.length);
    stub.stream.produce(1);
  }
  return out;
}
const consecutive = (from: number, count: number): number[] => Array.from({ length: count }, (_, i) => from + i);
const latestOf = async (url: string): Promise<number> => ((await (await fetch(`${url}/rpc/v3/block`)).json()) as { header: { height: number } }).header.height;
const reconnects = (events: WatchEvent[]): Extract<WatchEvent, { type: 'reconnect' }>[] => events.filter((e): e is Extract<WatchEvent, { type: 'reconnect' }> => e.type === 'reconnect');
/** A second stub at `stub`'s height less `behind`. */
async function second(behind = 0): Promise<NodeStubHandle> {
  const other = await startNodeStub({ now: () => NOW });
  const lag = (await latest()) - (await latestOf(other.url)) - behind;
  if (lag < 0) stub.stream.produce(-lag);
  else if (lag > 0) other.stream.produce(lag);
  return other;
}

describe('watchBlocks', () => {
  it('catches up from fromHeight through REST, then goes on live with no gap and no repeat', async () => {
    const node = createNodeClient({ baseUrl: stub.url });
    const from = (await latest()) - 5;
    stub.reset();
    const got = await heights(node.watchBlocks({ fromHeight: from, headersOnly: true, ...fast }), 14);
    expect(got).toEqual(consecutive(from, 14));
    // Some came from the stream: fewer REST reads than blocks.
    expect(stub.requests.filter((r) => r.operationId === 'getBlockByHeightV4').length).toBeLessThan(14);
  });

  it('keeps every height once across a drop, a 429, garbage and an oversized frame', async () => {
    const events: WatchEvent[] = [];
    const from = await latest();
    const faults = [
      () => stub.stream.drop(),
      () => {
        stub.stream.refuseNext(429, { retryAfterSeconds: 0 });
        stub.stream.drop();
      },
      () => stub.stream.sendGarbage(),
      () => stub.stream.sendOversized(20_000),
    ];
    const got = await heights(watchBlocks(createNodeClient({ baseUrl: stub.url }).transport, { fromHeight: from, includeTransactions: true, maxFrameBytes: 10_000, onEvent: (e) => events.push(e), ...fast }), 16, (i) => {
      if (i % 3 === 0) faults[i / 3 - 1]?.();
    });
    expect(got).toEqual(consecutive(from, 16));
    const errors = events.filter((e) => e.type === 'reconnect').map((e) => (e.type === 'reconnect' ? e.error.name : ''));
    expect(errors).toEqual(expect.arrayContaining(['HttpError', 'ResponseParseError', 'ResponseTooLargeError']));
    expect(events.find((e) => e.type === 'reconnect' && e.error.name === 'HttpError')).toMatchObject({ delayMs: 0 });
  });

  it('a pushed block that does not chain onto the last is not yielded: the stream is left, REST reads the real one', async () => {
    const events: WatchEvent[] = [];
    const from = await latest();
    const yielded: { height: number; hash: string }[] = [];
    const forged = `0x${'dd'.repeat(32)}`;
    for await (const header of watchBlocks(createNodeClient({ baseUrl: stub.url }).transport, { fromHeight: from, headersOnly: true, onEvent: (e) => events.push(e), ...fast })) {
      yielded.push(header);
      if (yielded.length === 4) break;
      if (yielded.length === 1) {
        // The next height, but on another parent: a fork, or a node that lies.
        const lie = { ...header, height: header.height + 1, parent: `0x${'ee'.repeat(32)}`, hash: forged };
        stub.stream.sendGarbage(JSON.stringify({ jsonrpc: '2.0', method: 'supra_subscription', params: { subscription: 'x', result: lie } }));
      }
      stub.stream.produce(1);
    }
    expect(yielded.map((h) => h.height)).toEqual(consecutive(from, 4));
    expect(yielded.map((h) => h.hash)).not.toContain(forged);
    expect(events.find((e) => e.type === 'reconnect')).toMatchObject({ error: { code: 'RESPONSE_SHAPE_ERROR', path: '/header/parent' } });
  });

  it('polls REST when the WebSocket is disabled (503), and says so', async () => {
    stub.stream.disabled = true;
    const events: WatchEvent[] = [];
    const from = await latest();
    try {
      const got = await heights(watchBlocks(createNodeClient({ baseUrl: stub.url }).transport, { fromHeight: from, headersOnly: true, onEvent: (e) => events.push(e), ...fast }), 5);
      expect(got).toEqual(consecutive(from, 5));
    } finally {
      stub.stream.disabled = false;
    }
    expect(events[0]).toMatchObject({ type: 'polling', error: { status: 503 } });
  });

  it('a slow consumer: the buffer overflows, the socket closes, REST catches up', async () => {
    const events: WatchEvent[] = [];
    const from = await latest();
    const got = await heights(watchBlocks(createNodeClient({ baseUrl: stub.url }).transport, { fromHeight: from, headersOnly: true, maxBufferedBlocks: 2, onEvent: (e) => events.push(e), ...fast }), 20, (i) => {
      if (i === 3) stub.stream.produce(10);
    });
    expect(got).toEqual(consecutive(from, 20));
    expect(events.some((e) => e.type === 'overflow')).toBe(true);
  });

  it('break closes the socket', async () => {
    await heights(createNodeClient({ baseUrl: stub.url }).watchBlocks({ headersOnly: true, fromHeight: await latest(), ...fast }), 2);
    while (stub.stream.connections > 0) await new Promise((resolve) => setImmediate(resolve));
    expect(stub.stream.connections).toBe(0);
  });

  it('another node takes over when one fails', async () => {
    const other = await startNodeStub({ now: () => NOW });
    try {
      other.stream.produce((await latest()) - (await (async () => ((await (await fetch(`${other.url}/rpc/v3/block`)).json()) as { header: { height: number } }).header.height)()));
      const events: WatchEvent[] = [];
      const node = createNodeClient({ baseUrl: [stub.url, other.url] });
      const from = await latest();
      const got: number[] = [];
      for await (const header of node.watchBlocks({ fromHeight: from, headersOnly: true, onEvent: (e) => events.push(e), ...fast })) {
        got.push(header.height);
        if (got.length === 8) break;
        if (got.length === 3) {
          stub.stream.refuseNext(429, { retryAfterSeconds: 0, times: 1 });
          stub.stream.drop();
        }
        stub.stream.produce(1);
        other.stream.produce(1);
      }
      expect(got).toEqual(consecutive(from, 8));
      expect(events.filter((e) => e.type === 'open').map((e) => (e.type === 'open' ? e.url.startsWith(other.url.replace('http', 'ws')) : false))).toContain(true);
    } finally {
      await other.close();
    }
  });

  it('refuses a node of another chain', async () => {
    const node = createNodeClient({ baseUrl: stub.url, chainId: 8 });
    const err = await rejectionOf(node.watchBlocks({ fromHeight: 1, headersOnly: true, ...fast })[Symbol.asyncIterator]().next());
    expect(err).toBeInstanceOf(ChainIdMismatchError);
  });

  it('refuses a node of another chain with no fromHeight, before any pushed block (a 101 names no chain)', async () => {
    const node = createNodeClient({ baseUrl: stub.url, chainId: 8 });
    const yielded: number[] = [];
    // Blocks keep coming once the socket opens, so a watch that does not check yields one.
    let making: ReturnType<typeof setInterval> | undefined;
    const onEvent = (e: WatchEvent): void => void (e.type === 'open' && (making ??= setInterval(() => stub.stream.produce(1), 5)));
    try {
      const err = await rejectionOf(
        (async () => {
          for await (const header of node.watchBlocks({ headersOnly: true, onEvent, ...fast })) {
            yielded.push(header.height);
            break;
          }
        })(),
      );
      expect(err).toBeInstanceOf(ChainIdMismatchError);
    } finally {
      clearInterval(making);
    }
    expect(yielded).toEqual([]);
  });

  it.each([
    ['5', '/params/result'],
    ['"text"', '/params/result'],
    ['{"height":1}', '/params/result/hash'],
  ])('a pushed result %s is a ResponseShapeError at %s: the stream is left, no TypeError', async (result, path) => {
    const events: WatchEvent[] = [];
    const from = await latest();
    const got = await heights(watchBlocks(createNodeClient({ baseUrl: stub.url }).transport, { fromHeight: from, headersOnly: true, onEvent: (e) => events.push(e), ...fast }), 5, (i) => {
      if (i === 2) stub.stream.sendGarbage(`{"jsonrpc":"2.0","method":"supra_subscription","params":{"subscription":"x","result":${result}}}`);
    });
    expect(got).toEqual(consecutive(from, 5));
    expect(reconnects(events)[0]).toMatchObject({ error: { code: 'RESPONSE_SHAPE_ERROR', path } });
  });

  it('a pushed block whose transactions is not an array is refused: REST reads the real one', async () => {
    const events: WatchEvent[] = [];
    const from = await latest();
    const got: { transactions?: unknown }[] = [];
    for await (const block of watchBlocks(createNodeClient({ baseUrl: stub.url }).transport, { fromHeight: from, onEvent: (e) => events.push(e), ...fast })) {
      got.push(block);
      if (got.length === 4) break;
      if (got.length === 2) {
        // The next block, pushed by hand with a broken list (the feed paused so that it does not push the real one).
        stub.stream.pause();
        const height = stub.stream.produce(1);
        const real = (await (await fetch(`${stub.url}/rpc/v4/block/height/${height}?with_finalized_transactions=false`)).json()) as object;
        stub.stream.sendGarbage(JSON.stringify({ jsonrpc: '2.0', method: 'supra_subscription', params: { subscription: 'x', result: { ...real, transactions: 5 } } }));
        stub.stream.resume();
        continue;
      }
      stub.stream.produce(1);
    }
    expect(got.map((b) => b.transactions === undefined || b.transactions === null || Array.isArray(b.transactions))).toEqual([true, true, true, true]);
    expect(reconnects(events)[0]).toMatchObject({ error: { code: 'RESPONSE_SHAPE_ERROR', path: '/params/result/transactions' } });
  });

  it('an error answer to the subscription says what the node said', async () => {
    const events: WatchEvent[] = [];
    const from = await latest();
    await heights(watchBlocks(createNodeClient({ baseUrl: stub.url }).transport, { fromHeight: from, headersOnly: true, onEvent: (e) => events.push(e), ...fast }), 4, (i) => {
      if (i === 2) stub.stream.sendGarbage('{"jsonrpc":"2.0","error":{"code":-32000,"message":"subscription limit reached"},"id":1}');
    });
    const error = reconnects(events)[0]?.error;
    expect(error).toMatchObject({ code: 'RESPONSE_SHAPE_ERROR', path: '/error', operationId: expect.stringMatching(/^supra_subscribe \(ws:/) });
    expect(error?.message).toContain('subscription limit reached');
  });

  it('goes on polling past REST failures (a 502, a reset), on to the next poll', async () => {
    stub.stream.disabled = true;
    const events: WatchEvent[] = [];
    const from = await latest();
    try {
      const node = createNodeClient({ baseUrl: stub.url, retry: false });
      const got = await heights(node.watchBlocks({ fromHeight: from, headersOnly: true, onEvent: (e) => events.push(e), ...fast }), 6, (i) => {
        if (i === 2) stub.failNext('getLatestBlockV3', 502, 2);
        if (i === 4) stub.failNext('getBlockByHeightV4', 'reset', 1);
      });
      expect(got).toEqual(consecutive(from, 6));
    } finally {
      stub.stream.disabled = false;
      stub.reset();
    }
    expect(reconnects(events).map((e) => e.error.name)).toEqual(['HttpError', 'HttpError', 'NetworkError']);
  });

  it('a reconnect whose REST read fails (a node restarting) backs off and goes on', async () => {
    const events: WatchEvent[] = [];
    const from = await latest();
    const node = createNodeClient({ baseUrl: stub.url, retry: false });
    const got = await heights(node.watchBlocks({ fromHeight: from, headersOnly: true, onEvent: (e) => events.push(e), ...fast }), 6, (i) => {
      if (i === 2) {
        stub.failNext('getLatestBlockV3', 'reset', 2);
        stub.stream.drop();
      }
    });
    expect(got).toEqual(consecutive(from, 6));
    // The drop, then REST's reset: NetworkErrors of an http: URL, past which the watch went on.
    expect(reconnects(events).filter((e) => e.error.name === 'NetworkError' && (e.error as { url?: string }).url?.startsWith('http:'))).not.toHaveLength(0);
  });

  it('maxFailures ends the watch with the last of that many failures in a row', async () => {
    stub.stream.disabled = true;
    stub.failNext('getLatestBlockV3', 502, Infinity);
    const events: WatchEvent[] = [];
    try {
      const node = createNodeClient({ baseUrl: stub.url, retry: false });
      const err = await rejectionOf(node.watchBlocks({ headersOnly: true, maxFailures: 3, onEvent: (e) => events.push(e), ...fast })[Symbol.asyncIterator]().next());
      expect(err).toBeInstanceOf(HttpError);
      expect(err).toMatchObject({ status: 502 });
    } finally {
      stub.stream.disabled = false;
      stub.reset();
    }
    // The stream's 503, then REST's 502 twice: three.
    expect(events.map((e) => e.type)).toEqual(['polling', 'reconnect']);
  });

  it('reads the gap from the node that streams, not from a node behind it (whose 404 would end the watch)', async () => {
    const behind = await second(5);
    try {
      behind.stream.refuseNext(429, { retryAfterSeconds: 0 });
      const node = createNodeClient({ baseUrl: [behind.url, stub.url] });
      const from = await latestOf(behind.url);
      const got = await heights(node.watchBlocks({ fromHeight: from, headersOnly: true, ...fast }), 8);
      expect(got).toEqual(consecutive(from, 8));
    } finally {
      await behind.close();
    }
  });

  it('a node that accepts the socket then fails (an error answer to each subscription) is polled after a few tries', async () => {
    const wss = new WebSocketServer({ noServer: true });
    const server: Server = createServer();
    server.on('upgrade', (req, socket, head) =>
      wss.handleUpgrade(req, socket, head, (ws) => ws.on('message', () => ws.send('{"jsonrpc":"2.0","error":{"code":-32000,"message":"overloaded"},"id":1}'))),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const events: WatchEvent[] = [];
    try {
      const from = await latest();
      const webSocketUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/rpc/v4/ws`;
      const got = await heights(watchBlocks(createNodeClient({ baseUrl: stub.url }).transport, { fromHeight: from, webSocketUrl, headersOnly: true, onEvent: (e) => events.push(e), ...fast }), 8);
      expect(got).toEqual(consecutive(from, 8));
    } finally {
      server.closeAllConnections();
      server.close();
    }
    expect(events.map((e) => e.type)).toContain('polling');
  });

  it('a connection silent past idleTimeoutMs (half-open, stalled) is left: the watch reconnects and REST reads what it missed', { timeout: 3_000 }, async () => {
    const events: WatchEvent[] = [];
    const from = await latest();
    try {
      const got = await heights(watchBlocks(createNodeClient({ baseUrl: stub.url }).transport, { fromHeight: from, headersOnly: true, idleTimeoutMs: 20, onEvent: (e) => events.push(e), ...fast }), 5, (i) => {
        if (i === 2) stub.stream.pause();
      });
      expect(got).toEqual(consecutive(from, 5));
    } finally {
      stub.stream.resume();
    }
    expect(reconnects(events).map((e) => e.error.code)).toContain('TIMEOUT');
  });

  it('the watchdog counts blocks, not frames: a socket that chatters (answers, no block) past idleTimeoutMs is left', { timeout: 5_000 }, async () => {
    const events: WatchEvent[] = [];
    const from = await latest();
    let chatter: ReturnType<typeof setInterval> | undefined;
    const onEvent = (e: WatchEvent): void => {
      events.push(e);
      if (e.type !== 'reconnect') return;
      clearInterval(chatter);
      stub.stream.resume();
    };
    try {
      const got = await heights(watchBlocks(createNodeClient({ baseUrl: stub.url }).transport, { fromHeight: from, headersOnly: true, idleTimeoutMs: 200, onEvent, ...fast }), 5, (i) => {
        if (i !== 2) return;
        // Blocks stop; the socket goes on sending frames that bring none, far more often than the watchdog's period.
        stub.stream.pause();
        chatter = setInterval(() => stub.stream.sendGarbage('{"jsonrpc":"2.0","result":"0x1","id":2}'), 2);
      });
      expect(got).toEqual(consecutive(from, 5));
    } finally {
      clearInterval(chatter);
      stub.stream.resume();
    }
    expect(reconnects(events)[0]?.error.code).toBe('TIMEOUT');
  });

  it("a node's Retry-After keeps the watch off that node only: the next node streams at once", async () => {
    const other = await second();
    const stop = new AbortController();
    const events: WatchEvent[] = [];
    try {
      stub.stream.refuseNext(429, { retryAfterSeconds: 3_600 });
      const node = createNodeClient({ baseUrl: [stub.url, other.url] });
      const from = await latest();
      const got: number[] = [];
      const onEvent = (e: WatchEvent): void => {
        events.push(e);
        if (e.type === 'reconnect' && e.delayMs > 60_000) stop.abort();
      };
      for await (const header of node.watchBlocks({ fromHeight: from, headersOnly: true, signal: stop.signal, onEvent, ...fast })) {
        got.push(header.height);
        if (got.length === 4) break;
        stub.stream.produce(1);
        other.stream.produce(1);
      }
      expect(got).toEqual(consecutive(from, 4));
    } finally {
      await other.close();
    }
    expect(reconnects(events)[0]).toMatchObject({ error: { status: 429 } });
    expect(reconnects(events)[0]?.delayMs).toBeLessThan(1_000);
  });

  it('a Retry-After is waited at most 60 s', async () => {
    stub.stream.refuseNext(429, { retryAfterSeconds: 3_600 });
    const stop = new AbortController();
    let delayMs = 0;
    const onEvent = (e: WatchEvent): void => {
      if (e.type !== 'reconnect') return;
      delayMs = e.delayMs;
      stop.abort();
    };
    await rejectionOf(createNodeClient({ baseUrl: stub.url }).watchBlocks({ headersOnly: true, signal: stop.signal, onEvent, ...fast })[Symbol.asyncIterator]().next());
    expect(delayMs).toBeGreaterThan(59_000);
    expect(delayMs).toBeLessThanOrEqual(60_000);
  });

  it.each([-1, 1.5, 'x', 2n ** 64n])('refuses fromHeight %s before any connection', async (fromHeight) => {
    stub.reset();
    const before = stub.stream.connections;
    expect(() => watchBlocks(createNodeClient({ baseUrl: stub.url }).transport, { fromHeight: fromHeight as never })).toThrow(/'fromHeight'/);
    await expectInvalid(createNodeClient({ baseUrl: stub.url }).watchBlocks({ fromHeight: fromHeight as never })[Symbol.asyncIterator]().next(), 'fromHeight');
    expect(stub.requests).toHaveLength(0);
    expect(stub.stream.connections).toBe(before);
  });

  it('takes maxFailures: Infinity, the default written out (no bound)', async () => {
    const from = (await latest()) - 2;
    expect(await heights(createNodeClient({ baseUrl: stub.url }).watchBlocks({ fromHeight: from, headersOnly: true, maxFailures: Infinity, ...fast }), 3)).toEqual(consecutive(from, 3));
  });

  it.each([0, 1.5, -1])('refuses maxFailures %s before any connection', async (maxFailures) => {
    await expectInvalid(createNodeClient({ baseUrl: stub.url }).watchBlocks({ maxFailures })[Symbol.asyncIterator]().next(), 'maxFailures');
  });
});
