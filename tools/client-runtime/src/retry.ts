/**
 * Retry policy of the clients' GET requests. Only idempotent reads are sent, so network errors,
 * timeouts and the statuses below are retried; other 4xx never are.
 */
export type RetryOptions = {
  /** Attempts in all, the first included (default 3; 1 turns retries off). */
  attempts?: number;
  /** Delay before the first retry, doubled for each further one (default 250 ms). */
  baseDelayMs?: number;
  /** Upper bound of one delay, `Retry-After` included (default 10 s). */
  maxDelayMs?: number;
  /** No retry starts after this much time since the first attempt (default 60 s). */
  maxElapsedMs?: number;
  /** Statuses that are retried (default 429, 502, 503, 504). */
  statuses?: readonly number[];
  /** Clock and timer hooks, for tests. */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
};

/** A fully resolved retry policy. */
export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY_STATUSES: readonly number[] = [429, 502, 503, 504];

/** Resolves the user's `retry` option (`false` turns retries off) over a client's default statuses. */
export function resolveRetry(option: RetryOptions | false | undefined, defaultStatuses = DEFAULT_RETRY_STATUSES): RetryPolicy {
  const o = option === false ? { attempts: 1 } : (option ?? {});
  const attempts = o.attempts ?? 3;
  if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError('retry.attempts must be an integer >= 1');
  return {
    attempts,
    baseDelayMs: o.baseDelayMs ?? 250,
    maxDelayMs: o.maxDelayMs ?? 10_000,
    maxElapsedMs: o.maxElapsedMs ?? 60_000,
    statuses: o.statuses ?? defaultStatuses,
    now: o.now ?? Date.now,
    sleep: o.sleep ?? sleep,
    random: o.random ?? Math.random,
  };
}

/**
 * The delay before retry number `retry` (1-based): full jitter over an exponential ceiling, or the
 * server's `Retry-After` when it gave one, both capped by `maxDelayMs`.
 */
export function backoffDelay(policy: RetryPolicy, retry: number, retryAfterMs: number | undefined): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), policy.maxDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(policy.random() * ceiling);
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
