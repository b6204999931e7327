import { HttpError } from '../errors.js';

/** How {@link reconnectDelay} spaces reconnects. */
export type ReconnectOptions = {
  /** The ceiling of the first wait, doubled for each failure in a row (default 250 ms). */
  baseDelayMs?: number | undefined;
  /** The longest wait the backoff itself picks (default 10 000 ms); a server's `Retry-After` may ask longer. */
  maxDelayMs?: number | undefined;
  /** A random number in [0, 1), for tests (default `Math.random`). */
  random?: (() => number) | undefined;
};

/**
 * The longest `Retry-After` a stream waits (60 s): a server asking for a day (or past a timer's 2^31-1 ms,
 * which would fire at once) is asked again after a minute.
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * The wait before reconnect number `failures` (1 after the first failure in a row): what the server asked
 * (`retryAfterMs` of the `HttpError` a 429 or 503 upgrade was refused with, honoured up to
 * a minute: an earlier try would be refused again), else full jitter under a ceiling that doubles up to `maxDelayMs`.
 *
 * @example
 * ```ts
 * await sleep(reconnectDelay(failures, err), signal); // a 429 with Retry-After: 2 waits 2 000 ms
 * ```
 */
export function reconnectDelay(failures: number, error: unknown, options: ReconnectOptions = {}): number {
  if (error instanceof HttpError && error.retryAfterMs !== undefined) return Math.min(Math.max(0, error.retryAfterMs), MAX_RETRY_AFTER_MS);
  const ceiling = Math.min(options.maxDelayMs ?? 10_000, (options.baseDelayMs ?? 250) * 2 ** Math.max(0, failures - 1));
  return Math.floor((options.random ?? Math.random)() * ceiling);
}
