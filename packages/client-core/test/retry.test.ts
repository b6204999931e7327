/**
 * `withRetry`, the retry loop the transport runs every call through, on its own: attempts, delays, the
 * elapsed-time cap and aborts, with a fake clock and sleep.
 */
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, resolveRetry, withRetry, type RetryOptions } from '@x/client-core';
import { useFakeTime } from '@x-tools/test-helpers';

const time = useFakeTime();

/** A policy on a fake clock: `sleep` advances it and records each delay. */
function fakePolicy(options: RetryOptions = {}) {
  const clock = { now: 0, slept: [] as number[] };
  const policy = resolveRetry({
    ...options,
    now: () => clock.now,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      clock.slept.push(ms);
      clock.now += ms;
    },
  });
  return { policy, clock };
}

/** A run that fails `failures` times with `error`, then resolves to the attempt number. */
function flaky(failures: number, error: unknown = new Error('transient')) {
  const attempts: number[] = [];
  const run = async (attempt: number): Promise<number> => {
    attempts.push(attempt);
    if (attempts.length <= failures) throw error;
    return attempt;
  };
  return { run, attempts };
}

const always = (ms: number) => () => ms;
const never = () => undefined;

describe('withRetry', () => {
  it.each([
    // failures, attempts allowed, delay, expected result ('throws' when the error comes out), attempts made, sleeps
    [0, 3, always(10), 1, [1], []],
    [2, 3, always(10), 3, [1, 2, 3], [10, 10]],
    [3, 3, always(10), 'throws', [1, 2, 3], [10, 10]],
    [5, 1, always(10), 'throws', [1], []],
    [1, 3, never, 'throws', [1], []],
  ] as const)('%i failures, %i attempts: %s', async (failures, attemptsAllowed, delay, expected, made, sleeps) => {
    const { policy, clock } = fakePolicy({ attempts: attemptsAllowed });
    const { run, attempts } = flaky(failures);
    const result = await withRetry(run, policy, delay).catch((e: unknown) => (e instanceof Error ? 'throws' : e));
    expect(result).toBe(expected);
    expect(attempts).toEqual(made);
    expect(clock.slept).toEqual(sleeps);
  });

  it('passes the error and the failed attempt number to retryDelay, and rethrows the last error unchanged', async () => {
    const { policy } = fakePolicy({ attempts: 3 });
    const errors = [new Error('a'), new Error('b'), new Error('c')];
    const seen: [string, number][] = [];
    let i = 0;
    const err = await withRetry(
      async () => {
        throw errors[i++];
      },
      policy,
      (e, attempt) => {
        seen.push([(e as Error).message, attempt]);
        return 1;
      },
    ).catch((e: unknown) => e);
    expect(seen).toEqual([['a', 1], ['b', 2]]);
    expect(err).toBe(errors[2]);
  });

  it('starts no attempt after maxElapsedMs since the first', async () => {
    const { policy, clock } = fakePolicy({ attempts: 10, maxElapsedMs: 250 });
    const { run, attempts } = flaky(10);
    await expect(withRetry(run, policy, always(100))).rejects.toThrow('transient');
    expect(attempts).toEqual([1, 2, 3]); // the next would start at 300 ms
    expect(clock.now).toBe(200);
  });

  it("rejects with the signal's reason when it aborts during the wait, and makes no further attempt", async () => {
    time.start(); // the policy's own sleep (a timer) and the abort's timer, on fake time
    const controller = new AbortController();
    const reason = new Error('stop');
    const policy = resolveRetry({ attempts: 5 }); // the real sleep
    const { run, attempts } = flaky(5);
    const pending = withRetry(run, policy, always(10_000), controller.signal);
    // It rejects while time advances, before the expectation below reads it: handled from the start.
    pending.catch(() => undefined);
    setTimeout(() => controller.abort(reason), 20);
    await time.advance(20); // 20 ms into the 10 s wait
    await expect(time.settles(pending, 'the rejection')).rejects.toBe(reason);
    expect(attempts).toEqual([1]);
  });

  it('bad policies are refused by resolveRetry, naming the option', () => {
    for (const [options, parameter] of [
      [{ attempts: 0 }, 'retry.attempts'],
      [{ attempts: 1.5 }, 'retry.attempts'],
      [{ baseDelayMs: -1 }, 'retry.baseDelayMs'],
      [{ maxDelayMs: 2 ** 31 }, 'retry.maxDelayMs'],
      [{ maxElapsedMs: Number.NaN }, 'retry.maxElapsedMs'],
    ] as const) {
      const err = (() => {
        try {
          resolveRetry(options);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter });
    }
  });
});
