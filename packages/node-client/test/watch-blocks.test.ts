/**
 * watchBlocks over real loopback WebSockets against the fake node (its clock fixed; blocks made by
 * `stub.stream.produce`, one per block the test reads, so nothing waits on a timer): every height exactly
 * once and in order across the seam of `fromHeight`, drops, refusals, garbage, oversized frames, a slow
 * consumer and a disabled WebSocket; `break` closes the socket; bad input is refused before any connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainIdMismatchError, createNodeClient, watchBlocks, type WatchEvent } from '@x/node-client';
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

  it.each([-1, 1.5, 'x', 2n ** 64n])('refuses fromHeight %s before any connection', async (fromHeight) => {
    stub.reset();
    const before = stub.stream.connections;
    expect(() => watchBlocks(createNodeClient({ baseUrl: stub.url }).transport, { fromHeight: fromHeight as never })).toThrow(/'fromHeight'/);
    await expectInvalid(createNodeClient({ baseUrl: stub.url }).watchBlocks({ fromHeight: fromHeight as never })[Symbol.asyncIterator]().next(), 'fromHeight');
    expect(stub.requests).toHaveLength(0);
    expect(stub.stream.connections).toBe(before);
  });
});
