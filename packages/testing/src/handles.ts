/**
 * What a test holds of a stub, whichever transport serves it: the request log, `reset()` and
 * `failNext()`, plus `port` and `close()` on a loopback server, or the function itself for the
 * in-memory fetch.
 */
import type { RecordedRequest, StubEngine } from './engine.ts';
import { StubArgumentError } from './errors.ts';
import type { FaultOptions, FaultSpec } from './faults.ts';
import { inMemoryFetch, type FetchFunction, type StubFetchOptions } from './fetch.ts';
import type { Route } from '@x/common';
/** Operation ids of the node RPC spec, e.g. `getAccountV2`, `listTransactionsV1`. */
export type NodeOperationId = Extract<Route, { service: 'node-rpc' }>['operationId'];
/** Operation ids of the price-history spec: `getHistory`, `getLatest`. */
export type PriceOperationId = Extract<Route, { service: 'price-history' }>['operationId'];

/** The controls every stub has, on either transport. */
export interface StubControls<Op extends string = string> {
  /** Base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  readonly url: string;
  /**
   * The last `requestLogSize` requests received (default 1,000, `DEFAULT_REQUEST_LOG_SIZE`), oldest
   * first, faulted ones and preflights too; older ones are dropped, so a long-running stub's memory stays
   * bounded. A live array: the same one throughout, trimmed to the bound each time it is read here.
   */
  readonly requests: RecordedRequest[];
  /**
   * Empties `requests`, forgets the `x-stub-fault-times` counters (the stub keeps at most 10,000 keys, the
   * oldest forgotten first) and drops queued `failNext` faults (an endless one included).
   */
  reset(): void;
  /**
   * Answers the next `times` (default 1) requests of `operationId` with a fault, before any fault a
   * request's headers ask for: a 4xx/5xx status (`429` and `503` with `Retry-After: 1`), `'slow'`,
   * `'reset'`, `'truncated'`, `'html'` or `'not-json'`. `'*'` stands for every operation of the stub
   * (after the faults queued for the operation itself); `times` may be `Infinity`, a stub that fails
   * until `reset()`. Throws `StubArgumentError` for an operation the stub does not serve, a bad kind or
   * a bad count.
   *
   * @example
   * ```ts
   * stub.failNext('getAccountV2', 503, 2); // two 503s, then the account
   * stub.failNext('*', 503, Infinity);     // a node that is down: every operation, until reset()
   * ```
   */
  failNext(operationId: Op | '*', kind: FaultSpec, times?: number, options?: FaultOptions): void;
}

/** A stub listening on loopback. */
export interface StubHandle<Op extends string = string> extends StubControls<Op> {
  readonly port: number;
  /** Stops listening and destroys every open socket, pending slow responses included. */
  close(): Promise<void>;
}

/** A stub answering in memory: pass it as a client's `fetch` option. */
export type StubFetch<Op extends string = string> = FetchFunction & StubControls<Op>;

export function controls<Op extends string>(engine: StubEngine, url: string): StubControls<Op> {
  return {
    url,
    // A getter: reading the log through the engine trims it to its bound.
    get requests() {
      return engine.requests;
    },
    reset: () => engine.reset(),
    failNext: (operationId, kind, times, options) => engine.failNext(operationId, kind, times, options),
  };
}

/** An in-memory fetch over `engine` with its controls and `extra` fields. */
export function fetchOf<Op extends string, T extends object>(engine: StubEngine, defaultUrl: string, options: StubFetchOptions, extra: T): StubFetch<Op> & T {
  let url: URL | undefined;
  try {
    url = new URL(options.url ?? defaultUrl);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new StubArgumentError('url', `must be an absolute http(s) URL, got '${String(options.url)}'`);
  }
  const origin = url.origin;
  // As property descriptors: Object.assign would copy the value of the `requests` getter, once.
  const fetch = Object.defineProperties(inMemoryFetch(engine, origin, options.fallback), Object.getOwnPropertyDescriptors(controls<Op>(engine, origin)));
  return Object.assign(fetch as FetchFunction & StubControls<Op>, extra);
}
