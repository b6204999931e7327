/**
 * The fake node's block stream as MSW handlers (`nodeHandlers().streamHandlers`), with MSW's `setupServer`
 * in Node (a browser's `setupWorker` runs the same handler): `watchBlocks` of the node client against REST
 * and stream both answered by MSW, on one clock. Node 20 has no global `WebSocket`, so this file lends it
 * `ws`'s for MSW to wrap (Node 22 and browsers have their own); in Node the client prefers the `ws`
 * package itself, which MSW does not see, so the watch is given the global (MSW's) as `WebSocket`.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { createNodeClient, type WatchEvent } from '@x/node-client';
import type { WebSocketConstructor } from '@x/client-core';
import { nodeHandlers, nodeStreamHandlers } from '../src/msw.ts';
import { createNodeStubFetch, StubArgumentError, type NodeStubFetch } from '../src/index.ts';

const hadGlobal = 'WebSocket' in globalThis;
if (!hadGlobal) Object.defineProperty(globalThis, 'WebSocket', { value: NodeWebSocket, configurable: true, writable: true });
const node = nodeHandlers({ seed: 7, now: () => Date.UTC(2024, 10, 20), baseUrl: 'https://node.msw.test' });
// An in-memory stub whose REST is its own fetch and whose stream MSW serves, as the example explorer's page does.
const inMemory = createNodeStubFetch({ seed: 3, now: () => Date.UTC(2024, 10, 20), url: 'http://in-memory.msw.test' });
const server = setupServer(...node, ...node.streamHandlers, ...nodeStreamHandlers(inMemory));
const intercepted = (): WebSocketConstructor => globalThis.WebSocket as unknown as WebSocketConstructor;
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => {
  server.close();
  if (!hadGlobal) delete (globalThis as { WebSocket?: unknown }).WebSocket;
});

it('serves watchBlocks: the past from REST, then the stream, every height once, across a drop', async () => {
  const client = createNodeClient({ baseUrl: node.url });
  const latest = (await client.v3.getLatestBlock()).header.height;
  const events: WatchEvent[] = [];
  const got: number[] = [];
  node.reset();
  for await (const header of client.watchBlocks({ fromHeight: latest - 3, headersOnly: true, WebSocket: intercepted(), reconnect: { baseDelayMs: 1 }, onEvent: (e) => events.push(e) })) {
    got.push(header.height);
    if (got.length === 12) break;
    if (got.length === 6) node.stream.drop();
    node.stream.produce(1);
  }
  expect(got).toEqual(Array.from({ length: 12 }, (_, i) => latest - 3 + i));
  expect(events.map((e) => e.type)).toEqual(['open', 'reconnect', 'open']);
  expect(events[0]).toMatchObject({ url: 'wss://node.msw.test/rpc/v4/ws' });
  // The stream brought some: fewer REST block reads than blocks.
  expect(node.requests.filter((r) => r.operationId === 'getBlockByHeightV4').length).toBeLessThan(12);
  while (node.stream.connections > 0) await new Promise((resolve) => setImmediate(resolve));
});

it('a refused upgrade is a close the client reconnects after', async () => {
  const client = createNodeClient({ baseUrl: node.url });
  const events: WatchEvent[] = [];
  node.stream.refuseNext(429, { retryAfterSeconds: 0 });
  const from = (await client.v3.getLatestBlock()).header.height;
  const got: number[] = [];
  for await (const header of client.watchBlocks({ fromHeight: from, headersOnly: true, WebSocket: intercepted(), reconnect: { baseDelayMs: 1 }, onEvent: (e) => events.push(e) })) {
    got.push(header.height);
    if (got.length === 3) break;
    node.stream.produce(1);
  }
  expect(got).toEqual([from, from + 1, from + 2]);
  expect(events.filter((e) => e.type === 'reconnect')).toHaveLength(1);
});

it("nodeStreamHandlers serves an in-memory stub's own stream: pushed blocks chain onto its fetch's", async () => {
  const client = createNodeClient({ baseUrl: inMemory.url, fetch: inMemory });
  const from = (await client.v3.getLatestBlock()).header.height;
  const events: WatchEvent[] = [];
  const got: number[] = [];
  for await (const header of client.watchBlocks({ fromHeight: from, headersOnly: true, WebSocket: intercepted(), onEvent: (e) => events.push(e) })) {
    got.push(header.height);
    if (got.length === 4) break;
    inMemory.stream.produce(1);
  }
  expect(got).toEqual([from, from + 1, from + 2, from + 3]);
  expect(events).toEqual([{ type: 'open', url: 'ws://in-memory.msw.test/rpc/v4/ws' }]);
  // Blocks after the first came by the stream: one REST block read (fromHeight's), not four.
  expect(inMemory.requests.filter((r) => r.operationId === 'getBlockByHeightV4').length).toBe(1);
  while (inMemory.stream.connections > 0) await new Promise((resolve) => setImmediate(resolve));
});

it('nodeStreamHandlers takes only a stub of createNodeStubFetch: StubArgumentError naming stub', () => {
  for (const stub of [{}, () => undefined, undefined] as unknown as NodeStubFetch[]) {
    expect(() => nodeStreamHandlers(stub)).toThrow(expect.objectContaining({ name: 'StubArgumentError', code: 'INVALID_ARGUMENT', parameter: 'stub' }));
  }
  expect(() => nodeStreamHandlers({} as NodeStubFetch)).toThrow(StubArgumentError);
});
