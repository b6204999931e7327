/**
 * watchBlocks' watchdog counts new blocks, not pushes: a stream stuck resending a block the watch already
 * delivered (a stalled node replaying its last block) is left after `idleTimeoutMs`, and REST reads on.
 * Over real loopback WebSockets against the fake node (its clock fixed; blocks made by `stub.stream.produce`).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createNodeClient, type WatchEvent } from '@x/node-client';
import { startNodeStub, type NodeStubHandle } from '@x/testing';

const NOW = Date.UTC(2024, 10, 20);
let stub: NodeStubHandle;
beforeAll(async () => {
  stub = await startNodeStub({ now: () => NOW });
});
afterAll(() => stub.close());

const rest = async <T>(path: string): Promise<T> => (await (await fetch(`${stub.url}${path}`)).json()) as T;

it('a stream that only resends a block already delivered is left after idleTimeoutMs: the watch reconnects and goes on', { timeout: 5_000 }, async () => {
  const events: WatchEvent[] = [];
  const from = (await rest<{ header: { height: number } }>('/rpc/v3/block')).header.height;
  let resend: ReturnType<typeof setInterval> | undefined;
  const onEvent = (e: WatchEvent): void => {
    events.push(e);
    if (e.type !== 'reconnect') return;
    clearInterval(resend);
    stub.stream.resume();
  };
  // Ends the watch (and the test, with what it saw) should the watchdog never fire.
  const signal = AbortSignal.timeout(3_000);
  const got: number[] = [];
  try {
    for await (const header of createNodeClient({ baseUrl: stub.url }).watchBlocks({ fromHeight: from, headersOnly: true, idleTimeoutMs: 200, reconnect: { baseDelayMs: 1 }, signal, onEvent })) {
      got.push(header.height);
      if (got.length === 5) break;
      if (got.length === 2) {
        // New blocks stop reaching the socket; the one delivered first is pushed again, far more often than the watchdog's period.
        stub.stream.pause();
        const { header: old } = await rest<{ header: unknown }>(`/rpc/v4/block/height/${from}`);
        const frame = JSON.stringify({ jsonrpc: '2.0', method: 'supra_subscription', params: { subscription: '1', result: old } });
        resend = setInterval(() => stub.stream.sendGarbage(frame), 2);
      }
      stub.stream.produce(1);
    }
  } catch (error) {
    expect.fail(`the watch ended with ${String(error)} after heights ${got.join(', ')}`);
  } finally {
    clearInterval(resend);
    stub.stream.resume();
  }
  expect(got).toEqual([0, 1, 2, 3, 4].map((i) => from + i));
  expect(events.find((e) => e.type === 'reconnect')).toMatchObject({ error: { code: 'TIMEOUT' } });
});
