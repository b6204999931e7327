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
 * The wait before reconnect number `failures` (1 after the first failure in a row): what the server asked
 * (`retryAfterMs` of the `HttpError` a 429 or 503 upgrade was refused with, honoured in full: an earlier
 * try would be refused again), else full jitter under a ceiling that doubles up to `maxDelayMs`.
 *
 * @example
 * ```ts
 * await sleep(reconnectDelay(failures, err), signal); // a 429 with Retry-After: 2 waits 2 000 ms
 * ```
 */
export function reconnectDelay(failures: number, error: unknown, options: ReconnectOptions = {}): number {
  if (error instanceof HttpError && error.retryAfterMs !== undefined) return Math.max(0, error.retryAfterMs);
  const ceiling = Math.min(options.maxDelayMs ?? 10_000, (options.baseDelayMs ?? 250) * 2 ** Math.max(0, failures - 1));
  return Math.floor((options.random ?? Math.random)() * ceiling);
}
