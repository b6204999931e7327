/**
 * The router at its edges, each over loopback servers of the test's own: an abort that lands
 * before a routed attempt starts, Supra's "try again in" on a client of one node, a 200 body cut short
 * moving the call to the next node, middleware seeing the node it talks to, and a walk that ends before
 * it starts leaving nothing on the caller's signal. What is about time (an abort "at once", a wait of
 * 1 s) runs on fake time (`useFakeTime`), so no test waits on the wall clock.
 */
import { getEventListeners } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeClient, ResponseParseError, type NodeClientOptions } from '@x/node-client';
import { createNodeStubFetch } from '@x/testing';
import { useFakeTime } from '@x-tools/test-helpers';

const ACCOUNT = { sequence_number: 7, authentication_key: `0x${'ab'.repeat(32)}` };
const time = useFakeTime();
const servers: Server[] = [];
async function start(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterAll(() =>
  Promise.all(
    servers.map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  ),
);
const ok: RequestListener = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ACCOUNT));

describe('an abort before a routed attempt starts', () => {
  it.each<[string, NodeClientOptions]>([
    ['onAttempt', { onAttempt: () => undefined }],
    ['rateLimit', { rateLimit: { requestsPerSecond: 100 } }],
  ])('with %s: rejects at once with the reason and closes the request', async (_label, options) => {
    time.start();
    let closedEarly = 0;
    const slow = await start((_req, res) => {
      const timer = setTimeout(() => ok(_req, res), 300);
      res.once('close', () => {
        if (!res.writableEnded) closedEarly++;
        clearTimeout(timer);
      });
    });
    const node = createNodeClient({ baseUrl: slow, retry: false, ...options });
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const started = performance.now();
    const call = node.v2.getAccount('0x1', { signal: controller.signal });
    controller.abort(reason);
    // At once: with time standing still (the server answers 300 ms on).
    await expect(time.settles(call, 'the rejection')).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(150);
    await time.realPause(50); // for a close to reach the server
    await time.advance(300); // the time of the answer: none goes out on a closed request
    expect(closedEarly).toBeLessThanOrEqual(1); // never answered: the request was closed, or never sent
  });

  it('over two nodes, the first hanging: the aborted call does not go on to the second', async () => {
    const hang = await start(() => undefined);
    let second = 0;
    const b = await start((req, res) => {
      second++;
      ok(req, res);
    });
    const node = createNodeClient({ baseUrl: [hang, b], timeoutMs: 500 });
    const controller = new AbortController();
    const call = node.v2.getAccount('0x1', { signal: controller.signal });
    controller.abort(new Error('caller gave up'));
    await expect(call).rejects.toThrow('caller gave up');
    expect(second).toBe(0);
  });
});

it("one node: a 429 with Supra's 'Please try again in 1s' and no Retry-After waits that long before the retry", async () => {
  time.start();
  const at: number[] = [];
  const url = await start((req, res) => {
    at.push(performance.now());
    if (at.length === 1) res.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Too many requests. Please try again in 1s' }));
    else ok(req, res);
  });
  const call = createNodeClient({ baseUrl: url }).v2.getAccount('0x1');
  await time.advanceUntil(() => at.length === 2, 'the retry', { stepMs: 25 });
  await call;
  expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(980);
});

describe('a 200 body cut short', () => {
  const cut: RequestListener = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
    res.write('{"sequence_number":');
    setTimeout(() => res.socket?.destroy(), 20);
  };
  it('moves the call to the next node', async () => {
    const node = createNodeClient({ baseUrl: [await start(cut), await start(ok)] });
    await expect(node.v2.getAccount('0x1')).resolves.toEqual(ACCOUNT);
  });
  it('with one node, stays a ResponseParseError', async () => {
    const node = createNodeClient({ baseUrl: await start(cut), retry: false });
    await expect(node.v2.getAccount('0x1')).rejects.toBeInstanceOf(ResponseParseError);
  });
});

it('a custom fetch sees each attempt on the node it goes to', async () => {
  const a = await start((_req, res) => res.writeHead(503).end());
  const b = await start(ok);
  const seen: string[] = [];
  const node = createNodeClient({
    baseUrl: [a, b],
    retry: false,
    fetch: (request) => {
      seen.push(new URL(request.url).origin);
      return fetch(request);
    },
  });
  await node.v2.getAccount('0x1');
  expect(seen).toEqual([a, b]);
});

it("a walk that ends before it starts (limit 0) leaves no listener on the caller's signal", async () => {
  const stub = createNodeStubFetch({ seed: 1 });
  const node = createNodeClient({ baseUrl: stub.url, fetch: stub });
  const controller = new AbortController();
  for (let i = 0; i < 3; i++) for await (const _ of node.v2.transactions('0x1', { limit: 0, signal: controller.signal })) expect.fail('no item');
  for await (const _ of node.v2.transactions('0x1', { limit: 1, signal: controller.signal })) break;
  expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
});
