import { checkInteger } from './params.js';
import { deadline } from './deadline.js';

/**
 * Retry policy of the clients' GET requests. Only idempotent reads are sent, so network errors,
 * timeouts and the statuses below are retried; other 4xx never are.
 */
export type RetryOptions = {
  /** Attempts in all, the first included (default 3; 1 turns retries off). */
  attempts?: number | undefined;
  /** Delay before the first retry, doubled for each further one (default 250 ms). */
  baseDelayMs?: number | undefined;
  /**
   * Upper bound of one delay (default 10 s). A `Retry-After` longer than this is not cut short: the
   * call fails with the `HttpError` instead, since retrying earlier than the server asked is pointless.
   */
  maxDelayMs?: number | undefined;
  /** No retry starts after this much time since the first attempt (default 60 s). */
  maxElapsedMs?: number | undefined;
  /** Statuses that are retried (default 429, 502, 503, 504; other 4xx are not, unless listed here). */
  statuses?: readonly number[] | undefined;
  /** Clock and timer hooks, for tests. */
  now?: (() => number) | undefined;
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  random?: (() => number) | undefined;
};

/** A fully resolved retry policy. */
/** The retry options resolved: every one set. */
export type RetryPolicy = { readonly [K in keyof RetryOptions]-?: Exclude<RetryOptions[K], undefined> };

export const DEFAULT_RETRY_STATUSES: readonly number[] = [429, 502, 503, 504];

/** Resolves the user's `retry` option (`false` turns retries off) over a client's default statuses. */
export function resolveRetry(option: RetryOptions | false | undefined, defaultStatuses = DEFAULT_RETRY_STATUSES): RetryPolicy {
  const o: RetryOptions = option === false ? { attempts: 1 } : (option ?? {});
  const ms = (name: 'baseDelayMs' | 'maxDelayMs' | 'maxElapsedMs', fallback: number, max?: number): number => milliseconds(`retry.${name}`, o[name] ?? fallback, 0, max);
  return {
    // Bounded: a retry loop must end, so attempts is a small integer (and the elapsed time is capped).
    attempts: checkInteger('retry.attempts', o.attempts ?? 3, 1, 100),
    baseDelayMs: ms('baseDelayMs', 250),
    maxDelayMs: ms('maxDelayMs', 10_000),
    maxElapsedMs: ms('maxElapsedMs', 60_000, Infinity),
    statuses: o.statuses ?? defaultStatuses,
    now: o.now ?? Date.now,
    sleep: o.sleep ?? sleep,
    random: o.random ?? Math.random,
  };
}

/**
 * A duration option: milliseconds from `min` to `max` (by default 0 to 2^31-1, the longest a timer
 * waits: a longer delay makes `setTimeout` fire at once).
 *
 * @example
 * ```ts
 * milliseconds('timeoutMs', 0, 1); // throws InvalidArgumentError naming 'timeoutMs'
 * ```
 */
export function milliseconds(name: string, value: unknown, min = 0, max = 2 ** 31 - 1): number {
  return checkInteger(name, value, min, max, false);
}

/**
 * The delay before retry number `retry` (1-based): full jitter over an exponential ceiling capped by
 * `maxDelayMs`, or the server's `Retry-After` when it gave one (the transport gives up instead of
 * waiting longer than `maxDelayMs`).
 */
export function backoffDelay(policy: RetryPolicy, retry: number, retryAfterMs: number | undefined): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), policy.maxDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(policy.random() * ceiling);
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  const text = value?.trim() ?? '';
  // An HTTP date names its day or month; without the letters check Date.parse takes '1.5' or '-1' as dates.
  const wait = /[a-z]/i.test(text) ? Date.parse(text) - now : NaN;
  return /^\d+$/.test(text) ? Number(text) * 1000 : Number.isNaN(wait) ? undefined : Math.max(0, wait);
}

/**
 * Runs `run` until it resolves, retrying while `retryDelay(error, attempt)` gives a delay, the policy's
 * attempts are not used up and the next attempt would start within `maxElapsedMs` of the first. The
 * wait between attempts ends early, with the signal's reason, when `signal` aborts.
 *
 * @example
 * ```ts
 * const policy = resolveRetry({ attempts: 5 });
 * const body = await withRetry(() => fetchJson(url), policy, (err, attempt) => (isTransient(err) ? backoffDelay(policy, attempt, undefined) : undefined));
 * ```
 */
export async function withRetry<T>(
  run: (attempt: number) => Promise<T>,
  policy: RetryPolicy,
  retryDelay: (error: unknown, attempt: number) => number | undefined,
  signal?: AbortSignal,
): Promise<T> {
  const started = policy.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (error) {
      const delay = attempt < policy.attempts ? retryDelay(error, attempt) : undefined;
      if (delay === undefined || policy.now() + delay - started > policy.maxElapsedMs) throw error;
      await policy.sleep(delay, signal);
    }
  }
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    // The timer's reason is undefined; an abort's never is (abort() without one gives an AbortError).
    const clear = deadline(ms, signal, (reason) => (clear(), reason === undefined ? resolve() : reject(reason)), noop);
  });
}

function noop(): void {}
