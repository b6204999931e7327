/**
 * `rateLimit`, measured where it matters: at loopback servers of the test's own, which record when each
 * request arrived and how many were open at once. The bucket spaces requests (`requestsPerSecond`,
 * `burst`), is shared by every call and walk of a client and kept per node; `maxConcurrent` caps the
 * requests open at a node, whatever a walk's `concurrency`; a call waiting for its turn leaves at once
 * when its signal aborts, with the signal's reason, and sends nothing.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createNodeClient } from '@x/node-client';
import { collect, expectNoOpenHandles, rejectionOf } from '@x-tools/test-helpers';
import { accountBody, startScriptedNode, transactionsPage, type ScriptedNode, type Seen } from './multi-node-helpers.ts';

const ADDRESS = `0x${'a1'.repeat(32)}`;
const servers: ScriptedNode[] = [];
/** A node answering accounts and the transactions of an account of `total`, after `delayMs`. */
async function node(total = 30, delayMs = 0): Promise<ScriptedNode> {
  const server = await startScriptedNode((url) => ({ delayMs, body: url.pathname.endsWith('/transactions') ? transactionsPage(url, total) : accountBody(1) }));
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await expectNoOpenHandles();
});

/** The gaps between the arrivals of consecutive requests, ms. */
const gaps = (seen: readonly Seen[]): number[] => seen.slice(1).map((s, i) => s.at - seen[i]!.at);
/**
 * The limiter spaces the sends by 50 ms; an arrival may lag its send (a loaded test run), which shortens
 * the gap after it: each gap is held to 30 ms, and request k to at least k x 50 - 20 ms after the first.
 */
const GAP_MS = 30;
const expectSpaced = (server: ScriptedNode, from = 0): void => {
  const seen = server.seen.slice(from);
  for (const [i, gap] of gaps(seen).entries()) expect(gap, `gap before request ${i + 1}`).toBeGreaterThanOrEqual(GAP_MS);
  for (const [k, s] of seen.entries()) expect(s.at - seen[0]!.at, `request ${k}`).toBeGreaterThanOrEqual(k * 50 - 20);
};
/** One call and a wait for the bucket to fill again: the connection is open and the first request of a test is not a cold one. */
const warm = async (client: ReturnType<typeof createNodeClient>): Promise<void> => {
  await client.v2.getAccount(ADDRESS);
  await new Promise((r) => setTimeout(r, 60));
};

describe('requestsPerSecond 20, burst 1: requests at least ~50 ms apart at the server', () => {
  it('6 calls at once', async () => {
    const server = await node();
    const client = createNodeClient({ baseUrl: server.url, rateLimit: { requestsPerSecond: 20, burst: 1 } });
    await warm(client);
    const started = performance.now();
    await Promise.all(Array.from({ length: 6 }, () => client.v2.getAccount(ADDRESS)));
    expect(server.seen).toHaveLength(7);
    expectSpaced(server, 1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(5 * 50 - 5);
  });

  it('a walk and calls share the bucket of the node', async () => {
    const server = await node(30);
    const client = createNodeClient({ baseUrl: [server.url, (await node()).url], rateLimit: { requestsPerSecond: 20, burst: 1 } });
    await warm(client);
    server.reset();
    const [items] = await Promise.all([
      collect(client.v2.transactions(ADDRESS, { pageSize: 10, concurrency: 4 })),
      client.v2.getAccount(ADDRESS),
      client.v2.getAccount(ADDRESS),
    ]);
    expect(items).toHaveLength(30);
    expect(server.seen.length).toBeGreaterThanOrEqual(6); // 4 pages (the last one empty), 2 calls
    expectSpaced(server);
  });

  it('per node: a call that falls through to the next node does not wait for the first one’s bucket', async () => {
    const failing = await startScriptedNode(() => ({ status: 502, body: 'bad gateway' }));
    servers.push(failing);
    const healthy = await node();
    const client = createNodeClient({ baseUrl: [failing.url, healthy.url], rateLimit: { requestsPerSecond: 1, burst: 1 } });
    const started = performance.now();
    await client.v2.getAccount(ADDRESS);
    expect(performance.now() - started).toBeLessThan(500); // a shared bucket would hold the second request 1 s
    expect([failing.seen.length, healthy.seen.length]).toEqual([1, 1]);
  });
});

describe('maxConcurrent 2', () => {
  it.each([
    ['rateLimit { requestsPerSecond: 10000, maxConcurrent: 2 }: at most 2 requests open at the server', { requestsPerSecond: 10_000, maxConcurrent: 2 }],
    // The control: without a limit the same walk has more open, so the server would see a broken limit.
    ['no rateLimit: more than 2 open', undefined],
  ])('a walk with concurrency 8, %s', async (_name, rateLimit) => {
    const server = await node(1_000, 20);
    const client = createNodeClient({ baseUrl: server.url, ...(rateLimit && { rateLimit }) });
    const items = await collect(client.v2.transactions(ADDRESS, { concurrency: 8 }));
    expect(items.map((t) => t.header.sequence_number)).toEqual(Array.from({ length: 1_000 }, (_, i) => i));
    if (rateLimit) expect(server.maxOpen).toBe(2);
    else expect(server.maxOpen).toBeGreaterThan(2);
  });
});

describe('a call waiting in the limiter', () => {
  it('rejects at once with the reason of its abort, and is never sent', async () => {
    const server = await node();
    const client = createNodeClient({ baseUrl: server.url, rateLimit: { requestsPerSecond: 1, burst: 1 } });
    await client.v2.getAccount(ADDRESS); // the token of this second is used
    const controller = new AbortController();
    const waiting = rejectionOf(client.v2.getAccount(ADDRESS, { signal: controller.signal }));
    await new Promise((r) => setTimeout(r, 30));
    const reason = new Error('the user left');
    const abortedAt = performance.now();
    controller.abort(reason);
    expect(await waiting).toBe(reason);
    expect(performance.now() - abortedAt).toBeLessThan(50);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.seen).toHaveLength(1);
  });

  it('a walk waiting in the limiter ends the same way', async () => {
    const server = await node(300);
    const client = createNodeClient({ baseUrl: server.url, rateLimit: { requestsPerSecond: 2, burst: 1 } });
    const controller = new AbortController();
    const reason = new Error('enough');
    const seen: unknown[] = [];
    const walking = rejectionOf(
      (async () => {
        for await (const tx of client.v2.transactions(ADDRESS, { pageSize: 10, signal: controller.signal })) {
          seen.push(tx);
          if (seen.length === 10) setTimeout(() => controller.abort(reason), 30); // while page 2 waits for its token
        }
      })(),
    );
    expect(await walking).toBe(reason);
    expect(seen).toHaveLength(10);
    expect(server.seen).toHaveLength(1);
  });
});
