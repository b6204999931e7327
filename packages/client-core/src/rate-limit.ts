import { checkInteger } from './params.js';
import { InvalidArgumentError } from './errors.js';

/** A client's own limit on the requests it sends to each node. */
export type RateLimitOptions = {
  /** Requests per second to one node, on average (a token bucket refilled at this rate). */
  requestsPerSecond: number;
  /** Requests that may go at once after a quiet spell (the bucket's size; default: one second's worth, at least 1). */
  burst?: number | undefined;
  /** Requests to one node in flight at once (default: no limit). */
  maxConcurrent?: number | undefined;
};

type Waiter = { resolve: (release: () => void) => void; reject: (reason: unknown) => void; signal: AbortSignal | undefined; onAbort: () => void };

/**
 * A token bucket with a cap on requests in flight, for one node. Callers wait in order; a waiting call
 * leaves the queue at once when its signal aborts. The only timer is the one that wakes the first waiter,
 * and it exists only while someone waits, so an idle client keeps no process alive.
 *
 * @example
 * ```ts
 * const limit = new RateLimiter({ requestsPerSecond: 10 });
 * const release = await limit.acquire(signal);
 * try { await fetch(url, { signal }); } finally { release(); }
 * ```
 */
export class RateLimiter {
  readonly #rate: number;
  readonly #burst: number;
  readonly #maxConcurrent: number;
  readonly #now: () => number;
  #tokens: number;
  #at: number;
  #inFlight = 0;
  readonly #queue: Waiter[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: RateLimitOptions, now: () => number = () => performance.now()) {
    const o = checkRateLimit(options);
    this.#rate = o.requestsPerSecond / 1000;
    this.#burst = o.burst;
    this.#maxConcurrent = o.maxConcurrent;
    this.#now = now;
    this.#tokens = o.burst;
    this.#at = now();
  }

  /** Resolves with a `release` to call when the request has ended, once a token and a slot are free. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const i = this.#queue.indexOf(waiter);
          if (i !== -1) this.#queue.splice(i, 1);
          reject(signal?.reason);
          this.#pump();
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.#queue.push(waiter);
      this.#pump();
    });
  }

  #refill(): void {
    const now = this.#now();
    this.#tokens = Math.min(this.#burst, this.#tokens + (now - this.#at) * this.#rate);
    this.#at = now;
  }

  #pump(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#refill();
    while (this.#queue.length > 0 && this.#tokens >= 1 && this.#inFlight < this.#maxConcurrent) {
      const waiter = this.#queue.shift()!;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.#tokens -= 1;
      this.#inFlight++;
      let released = false;
      waiter.resolve(() => {
        if (released) return;
        released = true;
        this.#inFlight--;
        this.#pump();
      });
    }
    // Waiting for a token (a slot frees itself through release): wake when the next one is there.
    if (this.#queue.length > 0 && this.#tokens < 1 && this.#inFlight < this.#maxConcurrent) {
      this.#timer = setTimeout(() => this.#pump(), Math.min(2 ** 31 - 1, Math.ceil((1 - this.#tokens) / this.#rate)));
    }
  }
}

/** The options with their defaults, each checked (an `InvalidArgumentError` naming `rateLimit.<field>`). */
function checkRateLimit(o: RateLimitOptions): Required<RateLimitOptions> {
  if (typeof o !== 'object' || o === null) throw new InvalidArgumentError('rateLimit', 'must be an object with requestsPerSecond');
  const rps = o.requestsPerSecond;
  // At least one request in 1,000 s: a slower rate is a node to leave out, not a limit.
  if (typeof rps !== 'number' || !(rps >= 0.001 && rps <= 100_000)) {
    throw new InvalidArgumentError('rateLimit.requestsPerSecond', `must be a number from 0.001 to 100000, got ${String(rps)}`);
  }
  return {
    requestsPerSecond: rps,
    burst: checkInteger('rateLimit.burst', o.burst ?? Math.max(1, Math.floor(rps)), 1, 100_000),
    maxConcurrent: o.maxConcurrent === undefined ? Infinity : checkInteger('rateLimit.maxConcurrent', o.maxConcurrent, 1, 10_000),
  };
}
