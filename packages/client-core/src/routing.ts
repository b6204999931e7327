import { HistoryPrunedError, HttpError, InvalidArgumentError, NodesFailedError, ResponseParseError, ResponseTooLargeError, ResponseValidationError, type NodeAttempt } from './errors.js';
import { Flights } from './flights.js';
import { fallsThrough, NodePool, type NodeState } from './nodes.js';
import { RateLimiter } from './rate-limit.js';
import { redactUrl } from './redact.js';
import { milliseconds, withRetry, type RetryPolicy } from './retry.js';
import type { AttemptInfo, CallOptions, NodeAffinity, OperationSpec, TransportOptions } from './options.js';
import type { Prepared, Transport } from './transport.js';

const HEDGE = Symbol('hedge');
type Outcome = { node: NodeState; ok: true; value: unknown } | { node: NodeState; ok: false; error: unknown };

/** Options of a transport over several nodes ({@link fallback}). */
export type FallbackOptions = Pick<TransportOptions, 'rateLimit' | 'hedgeAfterMs' | 'onAttempt'>;

/** What a transport over several nodes is: the calls of its transports, routed. */
export type Fallback = {
  /** The nodes' base URLs, in order of preference. */
  readonly baseUrls: readonly string[];
  call(operationId: string, op: OperationSpec, args: Record<string, unknown>, options?: CallOptions, affinity?: NodeAffinity): Promise<unknown>;
};

/**
 * A transport over several one-node transports, in order of preference (viem's `fallback`): a node
 * failure (network error, timeout, 408, 429, 5xx, a body that is not JSON, too large or refused by the
 * validator, another origin's or another chain's answer, an answer to another request, a 410 of pruned
 * history) moves a call on to the next node, and the node rests; a walk's pages stay on one node while it
 * answers. Also the home of a client-side rate limit, hedging and the attempt hook, with one node or
 * several. Arguments are checked, and retries paced, by the first transport.
 *
 * @example
 * ```ts
 * const nodes = fallback([createTransport({ baseUrl: a }), createTransport({ baseUrl: b })], { hedgeAfterMs: 500 });
 * await nodes.call('getAccountV3', op.getAccountV3, { address: '0x1' });
 * ```
 */
export function fallback(transports: readonly Transport[], options: FallbackOptions = {}): Fallback {
  if (!Array.isArray(transports) || transports.length === 0) throw new InvalidArgumentError('transports', 'must list at least one transport');
  const router = new NodeRouter(transports, options);
  return { baseUrls: router.urls, call: (operationId, op, args, callOptions, affinity) => router.call(operationId, op, args, callOptions, affinity) };
}

class NodeRouter {
  readonly urls: readonly string[];
  readonly #transports: ReadonlyMap<string, Transport>;
  readonly #first: Transport;
  readonly #pool: NodePool;
  readonly #policy: RetryPolicy;
  readonly #limiters: Map<string, RateLimiter> | undefined;
  readonly #hedgeAfterMs: number | undefined;
  readonly #onAttempt: ((attempt: AttemptInfo) => void) | undefined;

  constructor(transports: readonly Transport[], options: FallbackOptions) {
    const urls = (this.urls = Object.freeze(transports.map((t) => t.url)));
    const twice = urls.findIndex((u, i) => urls.indexOf(u) !== i);
    if (twice !== -1) throw new InvalidArgumentError('baseUrl', `lists the same node twice (entry ${twice})`);
    this.#transports = new Map(transports.map((t) => [t.url, t]));
    this.#first = transports[0]!;
    const policy = (this.#policy = this.#first.policy);
    // A node rests after a failure, twice as long after each further one in a row, up to one retry delay.
    this.#pool = new NodePool(urls, (failures) => Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failures - 1)));
    this.#limiters = options.rateLimit === undefined ? undefined : new Map(urls.map((u) => [u, new RateLimiter(options.rateLimit!)]));
    this.#hedgeAfterMs = options.hedgeAfterMs === undefined ? undefined : milliseconds('hedgeAfterMs', options.hedgeAfterMs, 1);
    if (options.onAttempt !== undefined && typeof options.onAttempt !== 'function') throw new InvalidArgumentError('onAttempt', 'must be a function');
    this.#onAttempt = options.onAttempt;
  }

  call(operationId: string, op: OperationSpec, args: Record<string, unknown>, options?: CallOptions, affinity?: NodeAffinity): Promise<unknown> {
    let request: Prepared;
    try {
      request = this.#first.prepare(operationId, op, args, options);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.#route(request, affinity);
  }

  #route(request: Prepared, affinity?: NodeAffinity): Promise<unknown> {
    const started = this.#policy.now();
    // Each node's last failure in any pass of this call, in the order first tried: NodesFailedError's attempts.
    const failed = new Map<NodeState, NodeAttempt>();
    return withRetry(
      (attempt) => this.#pass(request, affinity, attempt, started, failed),
      request.once ? { ...this.#policy, attempts: 1 } : this.#policy,
      (error, attempt) => this.#passDelay(error, attempt),
      request.signal,
    );
  }

  /**
   * One pass over the nodes awake, in order of preference (a walk's node first): the first answer that is
   * not a node failure (`fallsThrough`: a network error, timeout, 408, 429, 5xx, a 200 that is not JSON,
   * too large or refused by the validator, a redirect not followed) is the call's. A node that fails that
   * way rests (but for the validator's refusal), and the call goes on at once to the next. With `hedgeAfterMs`, a node slow to answer gets company from the
   * next. When every node rests, the pass waits for the first to wake, bounded as a retry's delay is.
   */
  async #pass(request: Prepared, affinity: NodeAffinity | undefined, attempt: number, started: number, failed: Map<NodeState, NodeAttempt>): Promise<unknown> {
    const { operationId, signal } = request;
    const pool = this.#pool;
    const policy = this.#policy;
    const several = pool.nodes.length > 1;
    const skip = affinity?.skip;
    // A walk leaves out the nodes it has found pruned below what it needs; it never skips them all.
    const awake = (now: number): NodeState[] => (skip ? pool.awake(now, affinity!.node).filter((n) => !skip.has(n.url)) : pool.awake(now, affinity?.node));
    if (skip && pool.nodes.every((n) => skip.has(n.url))) throw new InvalidArgumentError('affinity', 'skips every node');
    let order = awake(policy.now());
    // After the wait the node waited for is awake, even when the timer fired a ms early against the
    // policy's clock (Date.now()); and waits again when another call's failure put it back to rest.
    while (order.length === 0) {
      const wakeAt = pool.firstWake(skip);
      const wait = wakeAt - policy.now();
      if (wait > policy.maxDelayMs || policy.now() + wait - started > policy.maxElapsedMs) {
        // This call's own failures first, in the order tried; then the nodes it did not try, by their last error.
        const untried = pool.nodes.filter((n) => !failed.has(n)).map((n) => ({ url: redactBase(n.url), error: n.lastError }));
        throw new NodesFailedError([...failed.values(), ...untried]);
      }
      await policy.sleep(wait, signal);
      order = awake(Math.max(policy.now(), wakeAt));
    }
    // The caller's signal aborts every attempt of the pass; the end of the pass aborts those still in flight.
    const flights = new Flights<unknown>(signal);
    // Each node's attempt in flight, by its outcome once settled (which never rejects).
    const live = new Map<NodeState, Promise<Outcome>>();
    let next = 0;
    const launch = (kind: AttemptInfo['kind']): void => {
      const node = order[next++]!;
      let t0 = performance.now();
      const done = flights.launch((s) => this.#attemptOn(node, request, s, (t) => (t0 = t))).settled.then((r): Outcome => ({ node, ...r }));
      void done.then((o) => this.#report(node, operationId, kind, o, performance.now() - t0));
      live.set(node, done);
    };
    launch(attempt === 1 ? 'first' : 'retry');
    try {
      while (live.size > 0) {
        const hedge = this.#hedgeAfterMs !== undefined && !request.once && next < order.length ? delay(this.#hedgeAfterMs) : undefined;
        const outcome = await Promise.race([...live.values(), ...(hedge ? [hedge.promise] : [])]);
        hedge?.cancel();
        if (outcome === HEDGE) {
          launch('hedge');
          continue;
        }
        const { node } = outcome;
        live.delete(node);
        if (outcome.ok) {
          pool.succeeded(node);
          if (affinity) affinity.node = node.url;
          return outcome.value;
        }
        if (!several || request.once || !fallsThrough(outcome.error)) throw outcome.error;
        // A body the validator refuses moves the call on, but the node does not rest: where every node
        // sends it (the contract drifted), resting them all would only stall the calls that still work.
        // Nor does a node that pruned the history asked for: it answers everything newer.
        if (!(outcome.error instanceof ResponseValidationError || outcome.error instanceof HistoryPrunedError)) pool.failed(node, outcome.error, policy.now(), askedRest(outcome.error));
        failed.set(node, { url: redactBase(node.url), error: outcome.error });
        if (live.size === 0 && next < order.length) launch('fallback');
      }
    } finally {
      // Another node answered, the answer was final, or the caller gave up: nothing else stays in flight.
      flights.close();
    }
    const errors = [...failed.values()];
    // Every node has pruned the history asked for: that is the answer, with the oldest history there is.
    const pruned = errors.map((a) => a.error).filter((e): e is HistoryPrunedError => e instanceof HistoryPrunedError);
    if (pruned.length === errors.length && pruned.length > 0) throw pruned.reduce((a, b) => ((b.oldestBlock ?? Infinity) < (a.oldestBlock ?? Infinity) ? b : a));
    throw new NodesFailedError(errors);
  }

  /** One attempt on one node, after its rate limit lets it go. */
  async #attemptOn(node: NodeState, request: Prepared, signal: AbortSignal, started: (t0: number) => void): Promise<unknown> {
    const limiter = this.#limiters?.get(node.url);
    if (limiter === undefined) {
      started(performance.now());
      return this.#transports.get(node.url)!.attempt(request, signal);
    }
    // The wait for a token is not part of the attempt: `timeoutMs` and the reported duration start after it.
    const release = await limiter.acquire(signal);
    try {
      signal.throwIfAborted();
      started(performance.now());
      return await this.#transports.get(node.url)!.attempt(request, signal);
    } finally {
      release();
    }
  }

  #report(node: NodeState, operationId: string, kind: AttemptInfo['kind'], outcome: Outcome, durationMs: number): void {
    if (this.#onAttempt === undefined) return;
    const error = outcome.ok ? undefined : outcome.error;
    const info: AttemptInfo = {
      node: redactBase(node.url),
      operationId,
      kind,
      durationMs,
      // The status of any answer there was: an HttpError's, or a 200 whose body was refused.
      ...(outcome.ok ? { status: 200 } : error instanceof HttpError || error instanceof ResponseParseError || error instanceof ResponseTooLargeError ? { status: error.status } : {}),
      ...(outcome.ok ? {} : { error: error instanceof Error || error instanceof DOMException ? error.name : typeof error }),
    };
    try {
      this.#onAttempt(info);
    } catch {
      // A logging hook must not change the call's outcome.
    }
  }

  /**
   * The delay before the next pass: with one node, the retry policy's as before; with several, until the
   * first resting node wakes, when some node's failure is one the policy retries, and no longer than
   * `retry.maxDelayMs`.
   */
  #passDelay(error: unknown, attempt: number): number | undefined {
    if (this.#pool.nodes.length === 1) return this.#first.retryDelay(error, attempt);
    if (!(error instanceof NodesFailedError) || !error.attempts.some((a) => this.#first.retryDelay(a.error, attempt) !== undefined)) return undefined;
    const wait = Math.max(0, this.#pool.firstWake() - this.#policy.now());
    return wait > this.#policy.maxDelayMs ? undefined : wait;
  }
}

/** A node's base URL as errors and reports show it: redacted, without the slash URL parsing adds. */
const redactBase = (url: string): string => redactUrl(url).replace(/\/+$/, '');

/** How long a node asked to be left alone after a 429 or 503: its `Retry-After`, or the time its message names. */
function askedRest(error: unknown): number | undefined {
  if (!(error instanceof HttpError) || (error.status !== 429 && error.status !== 503)) return undefined;
  return error.retryAfterMs;
}

/** A timer that resolves with HEDGE, and can be cancelled so that it keeps nothing alive. */
function delay(ms: number): { promise: Promise<typeof HEDGE>; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<typeof HEDGE>((resolve) => {
    timer = setTimeout(() => resolve(HEDGE), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}
