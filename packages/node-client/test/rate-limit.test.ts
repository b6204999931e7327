/**
 * `rateLimit`, measured where it matters: at loopback servers of the test's own, which record when each
 * request arrived and how many were open at once. The bucket spaces requests (`requestsPerSecond`,
 * `burst`), is shared by every call and walk of a client and kept per node; `maxConcurrent` caps the
 * requests open at a node, whatever a walk's `concurrency`; a call waiting for its turn leaves at once
 * when its signal aborts, with the signal's reason, and sends nothing.
 *
 * The spacing and the waits are on fake time (`useFakeTime`): the limiter's timer and clock, and the
 * servers' clock, move only when a test moves them, and only once the request it expects has arrived,
 * so each request arrives at the fake instant it was sent and no test waits for the bucket on the wall
 * clock. The requests themselves still go over loopback HTTP.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createNodeClient } from '@x/node-client';
import { collect, expectNoOpenHandles, rejectionOf, useFakeTime } from '@x-tools/test-helpers';
import { accountBody, startScriptedNode, transactionsPage, type ScriptedNode, type Seen } from './multi-node-helpers.ts';

const ADDRESS = `0x${'a1'.repeat(32)}`;
const time = useFakeTime();
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
 * The limiter spaces the sends by 50 ms. On fake time a request arrives at the instant it was sent (time
 * stands still while it is on its way), so the gaps are 50 ms exactly; the bounds below are those of the
 * wall-clock version of these tests (an arrival that lags its send shortens the gap after it), kept as
 * they were: each gap at least 30 ms, and request k at least k x 50 - 20 ms after the first.
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
  await time.advance(60);
};

/**
 * Runs `work` with time moving 50 ms (the limiter's spacing) on after each request `server` receives,
 * and never while one is on its way: each request then arrives at the instant the limiter let it go.
 */
async function paced<T>(server: ScriptedNode, work: Promise<T>): Promise<T> {
  let done = false;
  const settled = work.finally(() => (done = true));
  // The requests seen before the last step: a step lets the next one go, which may arrive during it.
  let before = server.seen.length;
  for (;;) {
    await time.waitFor(() => server.seen.length > before || done, `request ${before + 1}, or the end`);
    if (done) return settled;
    before = server.seen.length;
    await time.advance(50);
  }
}

describe('requestsPerSecond 20, burst 1: requests at least ~50 ms apart at the server', () => {
  it('6 calls at once', async () => {
    time.start();
    const server = await node();
    const client = createNodeClient({ baseUrl: server.url, rateLimit: { requestsPerSecond: 20, burst: 1 } });
    await warm(client);
    const started = performance.now();
    const calls = Promise.all(Array.from({ length: 6 }, () => client.v2.getAccount(ADDRESS)));
    // The first goes at once (the bucket is full again), each of the 5 others 50 ms after the one before.
    for (let k = 2; k < 7; k++) {
      await time.waitFor(() => server.seen.length === k, `request ${k}`);
      await time.advance(50);
    }
    await calls;
    expect(server.seen).toHaveLength(7);
    expectSpaced(server, 1);
    expect(gaps(server.seen.slice(1))).toEqual([50, 50, 50, 50, 50]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(5 * 50 - 5);
  });

  it('a walk and calls share the bucket of the node', async () => {
    time.start();
    const server = await node(30);
    const client = createNodeClient({ baseUrl: [server.url, (await node()).url], rateLimit: { requestsPerSecond: 20, burst: 1 } });
    await warm(client);
    server.reset();
    const [items] = await paced(
      server,
      Promise.all([collect(client.v2.transactions(ADDRESS, { pageSize: 10, concurrency: 4 })), client.v2.getAccount(ADDRESS), client.v2.getAccount(ADDRESS)]),
    );
    expect(items).toHaveLength(30);
    expect(server.seen.length).toBeGreaterThanOrEqual(6); // 4 pages (the last one empty), 2 calls
    expectSpaced(server);
  });

  it('per node: a call that falls through to the next node does not wait for the first one’s bucket', async () => {
    time.start();
    const failing = await startScriptedNode(() => ({ status: 502, body: 'bad gateway' }));
    servers.push(failing);
    const healthy = await node();
    const client = createNodeClient({ baseUrl: [failing.url, healthy.url], rateLimit: { requestsPerSecond: 1, burst: 1 } });
    const started = performance.now();
    // Answered with time standing still: a shared bucket would hold the second request 1 s, for ever here.
    await time.settles(client.v2.getAccount(ADDRESS), 'the call');
    expect(performance.now() - started).toBeLessThan(500);
    expect([failing.seen.length, healthy.seen.length]).toEqual([1, 1]);
  });
});

describe('maxConcurrent 2', () => {
  it.each([
    ['rateLimit { requestsPerSecond: 10000, maxConcurrent: 2 }: at most 2 requests open at the server', { requestsPerSecond: 10_000, maxConcurrent: 2 }],
    // The control: without a limit the same walk has more open, so the server would see a broken limit.
    ['no rateLimit: more than 2 open', undefined],
  ])('a walk with concurrency 8, %s', async (_name, rateLimit) => {
    time.start();
    const server = await node(1_000, 20);
    const client = createNodeClient({ baseUrl: server.url, ...(rateLimit && { rateLimit }) });
    const walk = collect(client.v2.transactions(ADDRESS, { concurrency: 8 }));
    // The first pages are asked at once and held (each answers 20 ms on, and time stands still): the
    // server sees as many open as the client lets go at once. Then time moves on until the walk ends.
    const openNow = (): number => server.seen.filter((s) => !s.answered && !s.closedEarly).length;
    await time.waitFor(() => openNow() >= (rateLimit ? 2 : 3), 'the first requests, open at once');
    const items = await time.drive(walk, 'the walk', { stepMs: 20 });
    expect(items.map((t) => t.header.sequence_number)).toEqual(Array.from({ length: 1_000 }, (_, i) => i));
    if (rateLimit) expect(server.maxOpen).toBe(2);
    else expect(server.maxOpen).toBeGreaterThan(2);
  });
});

describe('a call waiting in the limiter', () => {
  it('rejects at once with the reason of its abort, and is never sent', async () => {
    time.start();
    const server = await node();
    const client = createNodeClient({ baseUrl: server.url, rateLimit: { requestsPerSecond: 1, burst: 1 } });
    await client.v2.getAccount(ADDRESS); // the token of this second is used
    const controller = new AbortController();
    const waiting = rejectionOf(client.v2.getAccount(ADDRESS, { signal: controller.signal }));
    await time.advance(30);
    const reason = new Error('the user left');
    const abortedAt = performance.now();
    controller.abort(reason);
    // At once: with time standing still (the token would come 970 ms on).
    expect(await time.settles(waiting, 'the rejection')).toBe(reason);
    expect(performance.now() - abortedAt).toBeLessThan(50);
    // Past the time its token would have come, and a moment of real time for a request to arrive: none did.
    await time.advance(2_000);
    await time.realPause(20);
    expect(server.seen).toHaveLength(1);
  });

  it('a walk waiting in the limiter ends the same way', async () => {
    time.start();
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
    await time.waitFor(() => seen.length === 10, 'the first page');
    await time.advance(30); // the abort; page 2's token would come 470 ms later
    expect(await time.settles(walking, 'the rejection')).toBe(reason);
    expect(seen).toHaveLength(10);
    expect(server.seen).toHaveLength(1);
  });
});
