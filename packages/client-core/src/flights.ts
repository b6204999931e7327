/**
 * Requests in flight for one walk of many pages (a listing's iterator, `historyRange`) or one pass of a
 * call over several nodes (the router: a fallback, a hedge): each with its own abort. The one engine of
 * the clients' concurrent fetching; what to ask next, how many at once, and in which order the answers
 * are read (a walk in the order asked, the router the first to settle), is the caller's.
 */

/**
 * A request in flight: its own abort, and its outcome, which never rejects.
 * @internal
 */
export type Flight<T> = {
  readonly abort: AbortController;
  readonly settled: Promise<{ ok: true; value: T } | { ok: false; error: unknown }>;
};

/**
 * The requests of one walk. Each has its own controller, so a page fetched ahead can be dropped alone;
 * the caller's signal aborts them all with its reason, and `close()` (a `break`, an error, the end)
 * aborts whatever is still in flight, so no request outlives its walk. An outcome is held, never an
 * unhandled rejection, until the walk reads it with `result`.
 *
 * @example
 * ```ts
 * const flights = new Flights<Candle[]>(signal);
 * const queue = windows.slice(0, 4).map((w) => flights.launch((s) => fetchWindow(w, s)));
 * try { for (const f of queue) yield* await flights.result(f); } finally { flights.close(); }
 * ```
 * @internal
 */
export class Flights<T> {
  readonly #live = new Set<AbortController>();
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = (): void => {
    for (const c of this.#live) c.abort(this.#signal?.reason);
  };

  /** @param signal - The caller's: aborting it aborts every request in flight with its reason. */
  constructor(signal: AbortSignal | undefined) {
    this.#signal = signal;
    signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** Starts `run` with an abort signal of its own (aborted already when the caller's is). */
  launch(run: (signal: AbortSignal) => Promise<T>): Flight<T> {
    const abort = new AbortController();
    this.#live.add(abort);
    if (this.#signal?.aborted) abort.abort(this.#signal.reason);
    const settled = run(abort.signal).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    void settled.then(() => this.#live.delete(abort));
    return { abort, settled };
  }

  /** What the request answered, or its error. */
  async result(flight: Flight<T>): Promise<T> {
    const r = await flight.settled;
    if (!r.ok) throw r.error;
    return r.value;
  }

  /** Aborts requests whose answers are not needed (pages fetched ahead of a walk that went elsewhere). */
  drop(flights: readonly Flight<T>[]): void {
    for (const f of flights) f.abort.abort(new DOMException('The page was fetched ahead and is not needed', 'AbortError'));
  }

  /** Ends the walk or pass: whatever is still in flight is aborted, and the caller's signal is let go. */
  close(): void {
    this.#signal?.removeEventListener('abort', this.#onAbort);
    for (const c of this.#live) c.abort(new DOMException('No longer needed', 'AbortError'));
    this.#live.clear();
  }
}
