/**
 * A client with several nodes, over real loopback servers: what moves a call to the next node (a node
 * that never answers, a dead port, 408, 429, 5xx, a reset), how long the failing node then rests (its
 * `Retry-After`, Supra's "try again in" message, or the backoff), what never falls through (404, 400, a
 * v1 null; a 200 whose body does not parse or validate does), and the `NodesFailedError` of a call every node
 * failed. The rests are read on a clock of the test's own (`retry.now`), so no test waits for them;
 * the timeouts run on fake time (`useFakeTime`), moved on once the request that times out has arrived.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ClientError,
  createNodeClient,
  HttpError,
  NetworkError,
  NodesFailedError,
  TimeoutError,
  type AttemptInfo,
  type NodeClientOptions,
} from '@x/node-client';
import { STUB_ACCOUNTS, startNodeStub, type NodeStubHandle } from '@x/testing';
import { startSilentServer } from '@x-tools/scripted-server';
import { expectNoOpenHandles, rejectionOf, useFakeTime } from '@x-tools/test-helpers';
import { deadUrl, startScriptedNode } from './multi-node-helpers.ts';

const { alice, unknown } = STUB_ACCOUNTS;
/** The clock of the rests: a whole second, so that an HTTP date lands on it exactly. */
const T0 = Date.UTC(2026, 0, 1);
const BASE_DELAY_MS = 50;
const time = useFakeTime();

let a: NodeStubHandle; // a node that fails on demand (failNext)
let b: NodeStubHandle; // the healthy node
let aliceSeq = 0;
beforeAll(async () => {
  [a, b] = await Promise.all([startNodeStub({ seed: 7 }), startNodeStub({ seed: 7 })]);
  aliceSeq = (await createNodeClient({ baseUrl: b.url }).v2.getAccount(alice)).sequence_number;
});
beforeEach(() => {
  a.reset();
  b.reset();
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
  await expectNoOpenHandles();
});

/** A client over `urls` reporting its attempts, its rests on a clock the test moves. */
function client(urls: string[], options: NodeClientOptions = {}): { node: ReturnType<typeof createNodeClient>; attempts: AttemptInfo[]; clock: { now: number } } {
  const attempts: AttemptInfo[] = [];
  const clock = { now: T0 };
  const node = createNodeClient({
    baseUrl: urls,
    onAttempt: (info) => attempts.push(info),
    ...options,
    retry: { baseDelayMs: BASE_DELAY_MS, now: () => clock.now },
  });
  return { node, attempts, clock };
}

/** The failing first node of a case; `requests` is undefined where nothing can count them (a dead port). */
type FirstNode = { url: string; requests(): number | undefined; close(): Promise<void> };
const stubA = (arm: (stub: NodeStubHandle) => void) => async (): Promise<FirstNode> => {
  arm(a);
  return { url: a.url, requests: () => a.requests.length, close: async () => {} };
};
const scripted = (status: number, body: unknown, headers: Record<string, string> = {}) => async (): Promise<FirstNode> => {
  const n = await startScriptedNode(() => ({ status, body, headers }));
  return { url: n.url, requests: () => n.seen.length, close: n.close };
};

describe('a failing first node: the call answers from the next, and the first rests', () => {
  it.each<[string, () => Promise<FirstNode>, { status?: number; error: string }, number, NodeClientOptions?]>([
    [
      'a black hole (never answers), timeoutMs 150',
      async () => {
        const s = await startSilentServer();
        return { url: s.url, requests: () => s.requests.length, close: s.close };
      },
      { error: 'TimeoutError' },
      BASE_DELAY_MS,
      { timeoutMs: 150 },
    ],
    [
      'a dead port (connection refused)',
      async () => ({ url: await deadUrl(), requests: () => undefined, close: async () => {} }),
      { error: 'NetworkError' },
      BASE_DELAY_MS,
    ],
    ['a 503 storm (Retry-After: 1)', stubA((s) => s.failNext('getAccountV2', 503, 50)), { status: 503, error: 'HttpError' }, 1_000],
    ['a 429 with Retry-After: 2', stubA((s) => s.failNext('getAccountV2', 429, 50, { retryAfter: '2' })), { status: 429, error: 'HttpError' }, 2_000],
    [
      "a 429 with Supra's message and no Retry-After",
      scripted(429, { message: 'Too many requests. Please try again in 1.5s' }),
      { status: 429, error: 'HttpError' },
      1_500,
    ],
    [
      'a 429 with Retry-After as an HTTP date 3 s ahead',
      scripted(429, { message: 'slow down' }, { 'retry-after': new Date(T0 + 3_000).toUTCString() }),
      { status: 429, error: 'HttpError' },
      3_000,
    ],
    ['a 503 without Retry-After (the backoff)', scripted(503, 'Service Unavailable'), { status: 503, error: 'HttpError' }, BASE_DELAY_MS],
    ['a 408', stubA((s) => s.failNext('getAccountV2', 408, 50)), { status: 408, error: 'HttpError' }, BASE_DELAY_MS],
    ['a 500 (not retried, but another node may answer)', stubA((s) => s.failNext('getAccountV2', 500, 50)), { status: 500, error: 'HttpError' }, BASE_DELAY_MS],
    ['a 502 with an HTML body', stubA((s) => s.failNext('getAccountV2', 'html', 50)), { status: 502, error: 'HttpError' }, BASE_DELAY_MS],
    ['a connection reset', stubA((s) => s.failNext('getAccountV2', 'reset', 50)), { error: 'NetworkError' }, BASE_DELAY_MS],
    // A node that answers, but not with an answer: a maintenance page. (A body the validator refuses moves
    // the call on without resting the node: see hostile-node.test.ts.)
    ['a 200 whose body is not JSON', stubA((s) => s.failNext('getAccountV2', 'not-json', 50)), { status: 200, error: 'ResponseParseError' }, BASE_DELAY_MS],
  ])('%s', async (_name, start, failure, restMs, options) => {
    time.start();
    const first = await start();
    try {
      const { node, attempts, clock } = client([first.url, b.url], options);
      /**
       * A call that asks the first node (its request number `nth`) and gets its answer from b. A black
       * hole's request times out once it has arrived and timeoutMs have passed; every other failure moves
       * the call on at once, with time standing still.
       */
      const fallsToB = async (nth: number): Promise<{ sequence_number: number }> => {
        const call = node.v2.getAccount(alice);
        if (options?.timeoutMs !== undefined) {
          await time.waitFor(() => first.requests() === nth, `request ${nth} to the first node`);
          await time.advance(options.timeoutMs);
        }
        return time.settles(call, 'the answer of the next node');
      };
      expect((await fallsToB(1)).sequence_number).toBe(aliceSeq);
      expect(attempts.map(({ kind, node: url, status, error }) => ({ kind, url, status, error }))).toEqual([
        { kind: 'first', url: first.url, ...failure },
        { kind: 'fallback', url: b.url, status: 200, error: undefined },
      ]);
      expect(b.requests).toHaveLength(1);
      const asked = first.requests();

      // Resting: the next calls go straight to the healthy node, up to the last ms of the rest.
      await node.v2.getAccount(alice);
      clock.now = T0 + restMs - 1;
      await node.v2.getAccount(alice);
      expect(first.requests()).toBe(asked);
      expect(b.requests).toHaveLength(3);
      expect(attempts.slice(2).map((x) => [x.kind, x.node])).toEqual([
        ['first', b.url],
        ['first', b.url],
      ]);

      // Awake again: first in line.
      clock.now = T0 + restMs;
      attempts.length = 0;
      await fallsToB((asked ?? 0) + 1);
      expect(attempts[0]).toMatchObject({ kind: 'first', node: first.url });
      if (asked !== undefined) expect(first.requests()).toBe(asked + 1);
    } finally {
      await first.close();
    }
  });
});

describe('an answer that is not a node failure is the answer: the next node gets no request', () => {
  it.each<[string, (n: ReturnType<typeof createNodeClient>) => Promise<unknown>, (result: unknown) => void, NodeClientOptions?]>([
    ['v2, an unknown account: 404', (n) => n.v2.getAccount(unknown), (e) => expect((e as HttpError).status).toBe(404)],
    [
      'a 400',
      (n) => {
        a.failNext('getAccountV2', 400);
        return n.v2.getAccount(alice);
      },
      (e) => expect((e as HttpError).status).toBe(400),
    ],
    [
      'a 401',
      (n) => {
        a.failNext('getAccountV2', 401);
        return n.v2.getAccount(alice);
      },
      (e) => expect((e as HttpError).status).toBe(401),
    ],
    ['v1, an unknown account: null', (n) => n.v1.getAccount(unknown), (r) => expect(r).toBeNull()],
  ])('%s', async (_name, call, check, options) => {
    const { node, attempts } = client([a.url, b.url], options);
    const result = await call(node).catch((e: unknown) => e);
    check(result);
    if (result instanceof Error) expect(result).not.toBeInstanceOf(NodesFailedError);
    expect(a.requests).toHaveLength(1);
    expect(b.requests).toHaveLength(0);
    expect(attempts.map((x) => [x.kind, x.node])).toEqual([['first', a.url]]);
    // The node that answered does not rest: the next call goes to it again.
    await node.v2.getAccount(alice).catch(() => undefined);
    expect(a.requests).toHaveLength(2);
    expect(b.requests).toHaveLength(0);
  });
});

describe('every node fails: NodesFailedError', () => {
  it.each<[string, NodeClientOptions['retry']]>([
    ['without retries', false],
    ['after retries (each pass over the nodes awake is one attempt)', { attempts: 3, baseDelayMs: 20 }],
  ])('%s: names each node (redacted, no trailing slash), in order, with its last error', async (_name, retry) => {
    const dead = await deadUrl('/base/');
    const silent = await startSilentServer();
    a.failNext('getAccountV2', 503, 50, { retryAfter: '0' });
    try {
      time.start();
      const node = createNodeClient({ baseUrl: [dead, silent.url, a.url], timeoutMs: 150, retry });
      const started = performance.now();
      const call = rejectionOf(node.v2.getAccount(alice));
      // The silent node's request times out; then a answers 503 (and, with retries, again in each pass
      // after a wait of 0 ms: its Retry-After) while the others rest. Time moves on only for the timeout.
      await time.waitFor(() => silent.requests.length === 1, 'the request to the silent node');
      await time.advance(150);
      const err = await time.drive(call, 'the NodesFailedError', { stepMs: 0 });
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(err).toBeInstanceOf(NodesFailedError);
      expect(err).toBeInstanceOf(ClientError);
      const e = err as NodesFailedError;
      expect(e.code).toBe('NODES_FAILED');
      expect(e.name).toBe('NodesFailedError');
      const deadShown = dead.replace(/\/$/, '');
      expect(e.attempts.map((x) => x.url)).toEqual([deadShown, silent.url, a.url]);
      expect(e.attempts[0]!.error).toBeInstanceOf(NetworkError);
      expect(e.attempts[1]!.error).toBeInstanceOf(TimeoutError);
      expect(e.attempts[2]!.error).toBeInstanceOf(HttpError);
      expect((e.attempts[2]!.error as HttpError).status).toBe(503);
      for (const url of [deadShown, silent.url, a.url]) expect(e.message).toContain(url);
      expect(e.message).not.toContain('/base/ ');
      expect(e.message).toMatch(/NetworkError.*TimeoutError.*HttpError/);
    } finally {
      await silent.close();
    }
  });

  it.each<[string, NodeClientOptions]>([
    ['with onAttempt', { onAttempt: () => {} }],
    ['with a rate limit', { rateLimit: { requestsPerSecond: 1_000 } }],
    ['with hedgeAfterMs', { hedgeAfterMs: 10 }],
  ])('one node (%s): the errors are the node’s own, as before', async (_name, options) => {
    const node = createNodeClient({ baseUrl: a.url, retry: false, ...options });
    a.failNext('getAccountV2', 503);
    const err = await rejectionOf(node.v2.getAccount(alice));
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(503);
    const down = createNodeClient({ baseUrl: await deadUrl(), retry: false, ...options });
    expect(await rejectionOf(down.v2.getAccount(alice))).toBeInstanceOf(NetworkError);
    // And a node alone never rests: the next call asks it again at once.
    a.failNext('getAccountV2', 503);
    await rejectionOf(node.v2.getAccount(alice));
    await node.v2.getAccount(alice);
    expect(a.requests).toHaveLength(3);
  });
});
