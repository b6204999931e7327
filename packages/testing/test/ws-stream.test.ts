/**
 * The fake node's WebSocket over real loopback: subscriptions, blocks pushed as `produce` makes them (the
 * REST block of that height), unsubscribe, JSON-RPC errors, and the faults a test drives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError, NetworkError, openSocket, ResponseTooLargeError, type Socket } from '@x/client-core';
import { startNodeStub, type NodeStubHandle } from '@x/testing';
import { rejectionOf } from '@x-tools/test-helpers';

let stub: NodeStubHandle;
let wsUrl: string;
beforeAll(async () => {
  stub = await startNodeStub({ now: () => Date.UTC(2024, 10, 20) });
  wsUrl = `${stub.url.replace('http', 'ws')}/rpc/v4/ws`;
});
afterAll(() => stub.close());

type Frame = { result?: unknown; error?: { code: number }; id?: unknown; params?: { subscription: string; result: { header?: { height: number }; height?: number } } };
/** A connection and the frames it got, with a wait for the n-th. */
async function connect(url = wsUrl): Promise<{ socket: Socket; frames: Frame[]; nth(n: number): Promise<Frame> }> {
  const frames: Frame[] = [];
  const waiters: (() => void)[] = [];
  const socket = await openSocket({ url, onMessage: (text) => (frames.push(JSON.parse(text) as Frame), waiters.splice(0).forEach((w) => w())) });
  const nth = async (n: number): Promise<Frame> => {
    while (frames.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    return frames[n - 1] as Frame;
  };
  return { socket, frames, nth };
}

describe('the fake node streams blocks', () => {
  it('pushes each block produce makes, as REST answers it, to newBlocks and newBlockHeaders', async () => {
    const { socket, nth } = await connect();
    socket.send('{"jsonrpc":"2.0","id":1,"method":"supra_subscribe","params":["newBlocks",{"includeTransactions":true}]}');
    socket.send('{"jsonrpc":"2.0","id":2,"method":"supra_subscribe","params":["newBlockHeaders"]}');
    const sub = (await nth(1)).result as string;
    expect((await nth(2)).result).not.toBe(sub);
    const latest = stub.stream.produce(2);
    const pushed = await Promise.all([3, 4, 5, 6].map((n) => nth(n)));
    const blocks = pushed.filter((f) => f.params?.subscription === sub).map((f) => f.params?.result.header?.height);
    const headers = pushed.filter((f) => f.params?.subscription !== sub).map((f) => f.params?.result.height);
    expect(blocks).toEqual([latest - 1, latest]);
    expect(headers).toEqual([latest - 1, latest]);
    const rest = (await (await fetch(`${stub.url}/rpc/v4/block/height/${latest}?with_finalized_transactions=true`)).json()) as unknown;
    expect(pushed.find((f) => f.params?.subscription === sub && f.params.result.header?.height === latest)?.params?.result).toEqual(rest);
    socket.close();
  });

  it('a subscriber after an idle spell gets the blocks made after it subscribed, not those made meanwhile', async () => {
    let now = Date.UTC(2024, 10, 20);
    const idle = await startNodeStub({ now: () => now });
    try {
      idle.stream.produce(1); // the feed has a head
      now += 20_000; // blocks made while nobody listens
      const { socket, nth } = await connect(`${idle.url.replace('http', 'ws')}/rpc/v4/ws`);
      socket.send('{"jsonrpc":"2.0","id":1,"method":"supra_subscribe","params":["newBlockHeaders"]}');
      await nth(1);
      const made = idle.stream.produce(1);
      expect((await nth(2)).params?.result.height).toBe(made);
      socket.close();
    } finally {
      await idle.close();
    }
  });

  it('answers JSON-RPC errors and unsubscribes', async () => {
    const { socket, nth } = await connect();
    socket.send('not json');
    socket.send('{"jsonrpc":"2.0","id":3,"method":"supra_subscribe","params":["newThings"]}');
    socket.send('{"jsonrpc":"2.0","id":4,"method":"eth_subscribe","params":[]}');
    socket.send('{"jsonrpc":"2.0","id":5,"method":"supra_unsubscribe","params":["0x1"]}');
    expect([(await nth(1)).error?.code, (await nth(2)).error?.code, (await nth(3)).error?.code, (await nth(4)).result]).toEqual([-32700, -32602, -32601, false]);
    socket.close();
  });
});

describe('the stream\'s faults', () => {
  it('refuses with 429 and Retry-After, 503 when disabled, 401 without the token', async () => {
    stub.stream.refuseNext(429, { retryAfterSeconds: 3 });
    expect(await rejectionOf(openSocket({ url: wsUrl, onMessage: () => undefined }))).toMatchObject({ status: 429, retryAfterMs: 3_000 });
    stub.stream.disabled = true;
    expect(await rejectionOf(openSocket({ url: wsUrl, onMessage: () => undefined }))).toMatchObject({ status: 503 });
    stub.stream.disabled = false;
    stub.stream.token = 't';
    const unauthorized = await rejectionOf(openSocket({ url: wsUrl, onMessage: () => undefined }));
    expect(unauthorized).toBeInstanceOf(HttpError);
    expect(unauthorized).toMatchObject({ status: 401 });
    (await openSocket({ url: wsUrl, headers: { authorization: 'Bearer t' }, onMessage: () => undefined })).close();
    stub.stream.token = undefined;
  });

  it('drops connections, sends garbage and oversized frames', async () => {
    const a = await connect();
    stub.stream.sendGarbage('{"oops"');
    expect(await a.socket.closed).toBeInstanceOf(SyntaxError);
    const b = await openSocket({ url: wsUrl, maxFrameBytes: 1_000, onMessage: () => undefined });
    stub.stream.sendOversized(5_000);
    expect(await b.closed).toBeInstanceOf(ResponseTooLargeError);
    const c = await openSocket({ url: wsUrl, onMessage: () => undefined });
    stub.stream.drop();
    expect(await c.closed).toBeInstanceOf(NetworkError);
  });
});
