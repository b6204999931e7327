/**
 * The end of an operation that must end: the first of its timer and its caller's abort. The fetch
 * attempt settles on it, and so can any other transport of this package (a WebSocket's opening), so that
 * every call ends the same way.
 */

/**
 * `timeoutMs` unless configured: 30 s.
 * @internal
 */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Calls `stop` on the first of `timeoutMs` passing (with what `timeout()` makes, a `TimeoutError`) and
 * `signal` aborting (with its reason); returns what clears both, to call once the operation ends by
 * itself. A signal aborted already fires no event: the caller checks `signal.aborted` after.
 *
 * @example
 * ```ts
 * const clear = deadline(5_000, signal, (reason) => reject(reason), () => new TimeoutError({ method: 'GET', url, timeoutMs: 5_000 }));
 * ```
 * @internal
 */
export function deadline(timeoutMs: number, signal: AbortSignal | undefined, stop: (reason: unknown) => void, timeout: () => unknown): () => void {
  const onAbort = (): void => stop(signal!.reason);
  const timer = setTimeout(() => stop(timeout()), timeoutMs);
  signal?.addEventListener('abort', onAbort, { once: true });
  return () => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  };
}
