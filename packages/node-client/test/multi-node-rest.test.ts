/**
 * How a failing node rests, over two real node stubs: skipped by the next calls (it gets no request)
 * until its rest is over, twice as long after each failure in a row up to `retry.maxDelayMs`, back to
 * the first rest after a success, and first in line again when it wakes (order = preference). When every
 * node rests, a call waits for the first to wake if that is within `retry.maxDelayMs` and
 * `retry.maxElapsedMs`, else rejects at once; between passes the delay is until the first node wakes.
 * The tests of rests and waits run on fake time (`useFakeTime`: the policy's `Date.now()`, its sleeps and
 * `performance.now()` move only when a test moves them), so none waits on the wall clock and the times
 * are exact; the schedules are read on a clock of the test's own. The calls go over loopback HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNodeClient, NodesFailedError, type AttemptInfo, type HttpError, type NodeClientOptions } from '@x/node-client';
import { STUB_ACCOUNTS, startNodeStub, type NodeStubHandle } from '@x/testing';
import { expectNoOpenHandles, rejectionOf, useFakeTime } from '@x-tools/test-helpers';
import { recordingClock } from './helpers.ts';

const { alice } = STUB_ACCOUNTS;
const time = useFakeTime();
/** Moves (fake) time on until `ms` after `from` (performance.now()). */
const sleepUntil = (from: number, ms: number): Promise<void> => time.advance(Math.max(0, from + ms - performance.now()));

let a: NodeStubHandle;
let b: NodeStubHandle;
const rejections: unknown[] = [];
const onRejection = (reason: unknown): void => void rejections.push(reason);
beforeAll(async () => {
  process.on('unhandledRejection', onRejection);
  [a, b] = await Promise.all([startNodeStub({ seed: 7 }), startNodeStub({ seed: 7 })]);
});
beforeEach(() => {
  a.reset();
  b.reset();
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
  await new Promise((r) => setImmediate(r));
  process.off('unhandledRejection', onRejection);
  expect(rejections, 'unhandled rejections').toEqual([]);
  await expectNoOpenHandles();
});

/** Which node each call went to, as [requests of a, requests of b]. */
const counts = (): [number, number] => [a.requests.length, b.requests.length];

describe('a node that failed rests, then is first in line again (fake time)', () => {
  beforeEach(() => {
    time.start();
  });

  it('skipped while it rests (baseDelayMs 100), asked again after, and preferred from then on', async () => {
    const node = createNodeClient({ baseUrl: [a.url, b.url], retry: { baseDelayMs: 100 } });
    a.failNext('getAccountV2', 502);
    await node.v2.getAccount(alice);
    const failedAt = performance.now();
    expect(counts()).toEqual([1, 1]);
    await node.v2.getAccount(alice);
    await node.v2.getAccount(alice);
    expect(counts()).toEqual([1, 3]); // a's request count stays: it is not asked while it rests
    await sleepUntil(failedAt, 150);
    await node.v2.getAccount(alice);
    await node.v2.getAccount(alice);
    expect(counts()).toEqual([3, 3]); // recovered: order = preference
  });

  it('a 429 with Retry-After: 1 rests it about 1 s', async () => {
    const node = createNodeClient({ baseUrl: [a.url, b.url] });
    a.failNext('getAccountV2', 429); // the stub's 429 says Retry-After: 1
    await node.v2.getAccount(alice);
    const failedAt = performance.now();
    expect(counts()).toEqual([1, 1]);
    await sleepUntil(failedAt, 600);
    await node.v2.getAccount(alice);
    expect(counts()).toEqual([1, 2]);
    await sleepUntil(failedAt, 1_100);
    await node.v2.getAccount(alice);
    expect(counts()).toEqual([2, 2]);
  });
});

describe("the rest schedule (on the test's own clock)", () => {
  it('doubles with each failure in a row (50, 100, 200), capped by maxDelayMs (300), and a success resets it', async () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const node = createNodeClient({ baseUrl: [a.url, b.url], retry: { baseDelayMs: 50, maxDelayMs: 300, now: () => clock.now } });
    /**
     * a rests since clock.now: asks at each ms boundary which rest it is (b answers meanwhile); the
     * request that finds a awake fails again when `failsAgain`, else succeeds.
     */
    const rest = async (failsAgain: boolean): Promise<number> => {
      const t = clock.now;
      const before = a.requests.length;
      if (failsAgain) a.failNext('getAccountV2', 502);
      for (const ms of [50, 100, 200, 300, 400]) {
        clock.now = t + ms - 1;
        await node.v2.getAccount(alice);
        expect(a.requests.length, `asked ${ms - 1} ms into its rest`).toBe(before);
        clock.now = t + ms;
        await node.v2.getAccount(alice);
        if (a.requests.length === before + 1) return ms;
      }
      throw new Error('never asked again');
    };
    a.failNext('getAccountV2', 502);
    await node.v2.getAccount(alice);
    expect(await rest(true)).toBe(50);
    expect(await rest(true)).toBe(100);
    expect(await rest(true)).toBe(200);
    expect(await rest(true)).toBe(300); // 400, capped
    expect(await rest(false)).toBe(300); // and this request succeeds: the count starts over
    a.failNext('getAccountV2', 502);
    await node.v2.getAccount(alice);
    expect(await rest(false)).toBe(50);
  });
});

describe('when every node rests', () => {
  const failBoth = async (node: ReturnType<typeof createNodeClient>, status: 502 | 429, retryAfter?: string): Promise<void> => {
    a.failNext('getAccountV2', status, 1, retryAfter === undefined ? {} : { retryAfter });
    b.failNext('getAccountV2', status, 1, retryAfter === undefined ? {} : { retryAfter });
    expect(await rejectionOf(node.v2.getAccount(alice))).toBeInstanceOf(NodesFailedError);
  };

  it('the call waits for the first node to wake (150 ms, within maxDelayMs), then answers from it', async () => {
    time.start();
    const attempts: AttemptInfo[] = [];
    const node = createNodeClient({ baseUrl: [a.url, b.url], retry: { attempts: 1, baseDelayMs: 150, maxDelayMs: 1_000 }, onAttempt: (x) => attempts.push(x) });
    await failBoth(node, 502);
    const started = performance.now();
    const call = node.v2.getAccount(alice);
    await time.advance(149);
    await time.realPause(20);
    expect(counts()).toEqual([1, 1]); // still waiting: a rests 150 ms
    await time.advance(1);
    await time.settles(call, 'the answer of a, awake');
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThan(100);
    expect(elapsed).toBeLessThan(800);
    expect(elapsed).toBe(150);
    expect(counts()).toEqual([2, 1]);
    expect(attempts.at(-1)).toMatchObject({ kind: 'first', node: a.url, status: 200 });
  });

  it.each<[string, 502 | 429, string | undefined, NonNullable<NodeClientOptions['retry']>]>([
    ['the first wakes after maxDelayMs (Retry-After: 5 > 1 s)', 429, '5', { maxDelayMs: 1_000 }],
    ['the wait would pass maxElapsedMs (rest 300 ms > 100 ms)', 502, undefined, { baseDelayMs: 300, maxDelayMs: 1_000, maxElapsedMs: 100 }],
  ])('rejects at once with NodesFailedError when %s', async (_name, status, retryAfter, retry) => {
    time.start();
    const node = createNodeClient({ baseUrl: [a.url, b.url], retry: { attempts: 1, ...retry } });
    await failBoth(node, status, retryAfter);
    const started = performance.now();
    // At once: with time standing still.
    const err = await time.settles(rejectionOf(node.v2.getAccount(alice)), 'the rejection');
    expect(performance.now() - started).toBeLessThan(100);
    expect(counts()).toEqual([1, 1]); // no request: every node rests
    expect(err).toBeInstanceOf(NodesFailedError);
    const e = err as NodesFailedError;
    expect(e.attempts.map((x) => x.url)).toEqual([a.url, b.url]);
    expect(e.attempts.map((x) => (x.error as HttpError).status)).toEqual([status, status]);
  });

  it('a timer that fires a ms early (as setTimeout may, against Date.now()) still ends in the answer', async () => {
    // The policy's sleep wakes 1 ms before the first node's rest is over, once.
    let now = Date.UTC(2026, 0, 1);
    let early = true;
    const node = createNodeClient({
      baseUrl: [a.url, b.url],
      retry: {
        attempts: 1,
        baseDelayMs: 100,
        now: () => now,
        sleep: async (ms) => {
          now += early && ms > 1 ? ms - 1 : ms;
          early = false;
        },
      },
    });
    await failBoth(node, 502);
    expect((await node.v2.getAccount(alice)).sequence_number).toBeGreaterThan(0);
    expect(counts()).toEqual([2, 1]);
  });

  it('two calls wait for the same node; the first finds it failing again: the second waits again, for the next wake', async () => {
    let now = Date.UTC(2026, 0, 1);
    const sleeps: { ms: number; wake: () => void }[] = [];
    const node = createNodeClient({
      baseUrl: [a.url, b.url],
      retry: { attempts: 1, baseDelayMs: 100, maxDelayMs: 1_000, now: () => now, sleep: (ms) => new Promise<void>((wake) => sleeps.push({ ms, wake })) },
    });
    a.failNext('getAccountV2', 502); // a rests 100 ms
    b.failNext('getAccountV2', 503, 1, { retryAfter: '5' }); // b rests 5 s
    await rejectionOf(node.v2.getAccount(alice));
    const first = rejectionOf(node.v2.getAccount(alice));
    const second = node.v2.getAccount(alice);
    await expect.poll(() => sleeps.length).toBe(2);
    expect(sleeps.map((s) => s.ms)).toEqual([100, 100]);
    now += 100;
    a.failNext('getAccountV2', 502); // a fails the first call again: it rests 200 ms more
    sleeps[0]!.wake();
    expect(await first).toBeInstanceOf(NodesFailedError);
    sleeps[1]!.wake();
    await expect.poll(() => sleeps.length).toBe(3);
    expect(sleeps[2]!.ms).toBe(200);
    now += 200;
    sleeps[2]!.wake();
    expect((await second).sequence_number).toBeGreaterThan(0);
    expect(counts()).toEqual([3, 1]);
  });

  it('between passes, the delay is until the first node wakes', async () => {
    const clock = recordingClock();
    const attempts: AttemptInfo[] = [];
    const node = createNodeClient({ baseUrl: [a.url, b.url], retry: { ...clock, attempts: 3, baseDelayMs: 100 }, onAttempt: (x) => attempts.push(x) });
    a.failNext('getAccountV2', 503, 1, { retryAfter: '2' }); // a rests 2 s
    b.failNext('getAccountV2', 502); // b rests 100 ms
    await node.v2.getAccount(alice);
    expect(clock.delays).toEqual([100]);
    expect(attempts.map((x) => [x.kind, x.node, x.status])).toEqual([
      ['first', a.url, 503],
      ['fallback', b.url, 502],
      ['retry', b.url, 200],
    ]);
  });
});
