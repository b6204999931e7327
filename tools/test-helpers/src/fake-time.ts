/**
 * Time that moves only when a test moves it, for tests that still talk real HTTP to loopback servers.
 * The clock (`Date`, `performance.now()`) and the timers (`setTimeout`, `setInterval`) are fake, so a
 * client's rate limit, hedge, rest or backoff and a server's delay cost no wall time and happen at exact
 * times, however loaded the machine. What real I/O runs on stays real: the sockets, `setImmediate`,
 * `process.nextTick` and the microtask queue (faking those would stall the loopback traffic itself).
 *
 * HTTP over loopback still takes real time, so a test moves time on only once the traffic it expects
 * has happened: it waits for that on the real clock (`waitFor`, a condition on what a server saw), then
 * `advance`s. Time never moves while a request is on its way, which is what makes the times exact.
 *
 * @example
 * ```ts
 * const time = useFakeTime(); // at the top of the file: real timers again after each test
 * it('spaces requests 50 ms apart', async () => {
 *   time.start();
 *   const client = createNodeClient({ baseUrl: server.url, rateLimit: { requestsPerSecond: 20, burst: 1 } });
 *   const calls = Promise.all([client.v2.getAccount(a), client.v2.getAccount(a)]);
 *   await time.waitFor(() => server.seen.length === 1, 'the first request');
 *   await time.advance(50);
 *   await time.waitFor(() => server.seen.length === 2, 'the second request, 50 ms later');
 *   await calls;
 * });
 * ```
 */
import { afterEach, expect, vi } from 'vitest';

/** The real timer and clock, taken when this module loads: before any test fakes them. */
const realSetTimeout = globalThis.setTimeout;
const realNow = performance.now.bind(performance);

/**
 * What fake time replaces: the clock and the timers. Not `setImmediate`, `nextTick` nor `queueMicrotask`,
 * which Node's HTTP and `fetch` need to make progress while the fake clock stands still.
 */
export const FAKED_WITH_LOOPBACK = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] as const;

/** Real milliseconds `waitFor` waits by default before it fails the test. */
const WAIT_FOR_MS = 5_000;

export type FakeTime = {
  /**
   * Fakes the clock and the timers from here on in this test; `Date.now()` reads `at` (default: the real
   * time now). Create the clients after this: a retry policy reads the `Date.now` it found when made.
   */
  start(at?: number): void;
  /** Moves time `ms` on: runs the timers due, in order, each followed by the promise callbacks it starts. */
  advance(ms: number): Promise<void>;
  /**
   * Moves time on `stepMs` at a time, letting real I/O run between the steps, until `check()` holds (at
   * most `maxMs` of fake time, and 5 s of real time; then fails naming `what`). For a wait whose start the
   * test cannot see (a retry's sleep begins once an answer has been read): what happens then happens up
   * to a step or two late, never early, so it suits checks of how long something at least waited. Steps
   * move time while requests are on their way: keep them well below the clients' `timeoutMs`. A `stepMs`
   * of 0 runs the timers due now (a sleep of 0 ms) and never moves time.
   */
  advanceUntil(check: () => boolean, what: string, options?: { stepMs?: number; maxMs?: number }): Promise<void>;
  /** The outcome of `promise`, time moving on as `advanceUntil` moves it until the promise settles. */
  drive<T>(promise: Promise<T>, what: string, options?: { stepMs?: number; maxMs?: number }): Promise<T>;
  /**
   * Waits, on the real clock, until `check()` holds: the loopback traffic a step starts takes real time.
   * Fails the test, naming `what`, when it does not hold within `ms` real ms.
   */
  waitFor(check: () => boolean, what: string, ms?: number): Promise<void>;
  /**
   * The outcome of `promise`, which must settle within `ms` real ms without time moving on (a call that
   * must not wait for any timer): fails the test, naming `what`, when it does not.
   */
  settles<T>(promise: Promise<T>, what: string, ms?: number): Promise<T>;
  /** Lets `ms` real ms pass: before a check that something (a request) did not happen. */
  realPause(ms: number): Promise<void>;
};

/** Waits `ms` on the real clock, whether or not time is fake. */
export const realPause = (ms: number): Promise<void> => new Promise((resolve) => realSetTimeout(resolve, ms));

/** Waits on the real clock until `check()` holds; fails, naming `what`, after `ms` real ms. */
async function waitFor(check: () => boolean, what: string, ms = WAIT_FOR_MS): Promise<void> {
  for (const end = realNow() + ms; !check() && realNow() < end; ) await realPause(1);
  expect(check(), `waited ${ms} real ms for ${what}`).toBe(true);
}

/**
 * Whether `promise` has settled, as a check. Its rejection is observed here and stays the caller's to
 * await (it is no unhandled rejection).
 */
function observe(promise: Promise<unknown>): () => boolean {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return () => settled;
}

/**
 * Fake time for the tests of a file that call `start()`: call it at the top level of the file. Every test
 * ends with the real timers back (a test that never calls `start()` runs on them throughout), before the
 * file's guard looks for open handles with real timers.
 */
export function useFakeTime(): FakeTime {
  afterEach(() => {
    vi.useRealTimers();
  });
  const advanceUntil: FakeTime['advanceUntil'] = async (check, what, { stepMs = 10, maxMs = 60_000 } = {}) => {
    for (let moved = 0, end = realNow() + WAIT_FOR_MS; !check() && moved < maxMs && realNow() < end; moved += stepMs) {
      await vi.advanceTimersByTimeAsync(stepMs);
      await realPause(1);
    }
    expect(check(), `moved time on ${stepMs} ms at a time for ${what}`).toBe(true);
  };
  return {
    start(at) {
      vi.useFakeTimers({ toFake: [...FAKED_WITH_LOOPBACK], ...(at === undefined ? {} : { now: at }) });
    },
    async advance(ms) {
      await vi.advanceTimersByTimeAsync(ms);
    },
    advanceUntil,
    async drive(promise, what, options) {
      const settled = observe(promise);
      await advanceUntil(settled, what, options);
      return promise;
    },
    waitFor,
    async settles(promise, what, ms = WAIT_FOR_MS) {
      await waitFor(observe(promise), `${what} (time standing still)`, ms);
      return promise;
    },
    realPause,
  };
}
