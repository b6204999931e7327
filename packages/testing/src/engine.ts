/**
 * What both transports share: the request log (bounded; `DELETE /__stub/requests` empties it), the fault
 * protocol (headers and `failNext`), the attempt counters of `x-stub-fault-times`, CORS, and the router.
 * `dispatch` decides what a request gets; the loopback server (server.ts) and the in-memory fetch
 * (fetch.ts) only carry it out, so both answer with the same bodies, headers and faults.
 */
import { StubArgumentError } from './errors.ts';
import {
  BAD_GATEWAY_HTML,
  FAULT_HEADERS,
  MAX_LOCATION_LENGTH,
  NOT_JSON_BODY,
  faultFromSpec,
  parseFaultHeaders,
  redirectLocation,
  type Fault,
  type FaultOptions,
  type FaultSpec,
} from './faults.ts';
import { matchRoute, routes } from '@x/common';
import { errorResponse, headerValue, jsonResponse, type RequestHeaders, type Router, type StubResponse } from './router.ts';

/** One request as the stub received it (nothing redacted: tests assert what was sent). */
export interface RecordedRequest {
  method: string;
  /** Path and query exactly as sent, e.g. `/rpc/v2/accounts/0x1/transactions?count=5`. */
  url: string;
  /** Request headers, names lowercased. */
  headers: Record<string, string | string[] | undefined>;
  /** The spec's operation the path names (e.g. `listTransactionsV2`), when it names one. */
  operationId?: string;
  /** The body as text, when the request had one (the node's POST reads) no larger than `MAX_REQUEST_BODY_BYTES`. */
  body?: string;
}

/**
 * The largest request body a stub reads: 64 KiB, far more than a view call or a table key needs. A
 * transport stops reading a larger one, and the stub answers 413: what a client sends cannot make it
 * hold or parse more.
 */
export const MAX_REQUEST_BODY_BYTES = 64 * 1024;

/** A request's body as a transport read it: its text, or the news that it was over `MAX_REQUEST_BODY_BYTES`. */
export type RequestBody = string | { readonly tooLarge: true };

/** The service a stub plays, as the specs name them. */
export type Service = 'node-rpc' | 'price-history';

/** What a request gets; a transport carries it out. */
export type Outcome =
  /** A CORS preflight: 204 with these headers (`preflightHeaders` of the service and the stub's own). */
  | { kind: 'preflight'; headers: Readonly<Record<string, string>> }
  | { kind: 'answer'; response: StubResponse }
  | { kind: 'slow'; delayMs: number; respond: () => StubResponse }
  | { kind: 'reset' }
  /** The status and headers (a `Content-Length` 100 bytes larger than the body), then half the body, then the end. */
  | { kind: 'truncated'; status: number; headers: Record<string, string>; half: Uint8Array };

/**
 * Request headers a browser may send cross-origin (the preflight's `Access-Control-Allow-Headers`): the
 * price API key, every fault header and the node stub's `x-stub-shapes`. Any other custom header fails
 * the preflight, as it would on a server that does not list it.
 */
export const CORS_ALLOWED_HEADERS = ['x-api-key', 'content-type', ...Object.values(FAULT_HEADERS), 'x-stub-shapes'] as const;

/**
 * Response headers a browser script may read cross-origin (`Access-Control-Expose-Headers`): `Retry-After`,
 * so that a client can honour it, the node's v3 headers (the next page's cursor, the chain id, the
 * oldest block kept), without which a browser client could not page v3 or check the chain, the price
 * stub's `x-stub-clock` (the time its answer was computed at) and `x-stub-sample` (an answer that is the
 * generated sample of an operation the stub has no handler for yet).
 */
export const CORS_EXPOSED_HEADERS = ['Retry-After', 'x-supra-cursor', 'x-supra-chain-id', 'x-supra-oldest-block', 'x-stub-clock', 'x-stub-sample'] as const;

/**
 * Sent with every answer (faults included; a `reset` writes nothing): any origin may read the answers
 * (no credentials are involved), and the headers of `CORS_EXPOSED_HEADERS` are exposed.
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': CORS_EXPOSED_HEADERS.join(', '),
};

/**
 * The answer to a CORS preflight (`OPTIONS`), on any path: 204 with these headers. The methods are those
 * of the service's routes: `GET, POST` on the node (its view and table reads are POSTs of JSON, which
 * a browser preflights for their `content-type`), `GET` on the price service.
 */
export function preflightHeaders(service: Service): Readonly<Record<string, string>> {
  return {
    ...CORS_HEADERS,
    'access-control-allow-methods': [...new Set(routes.filter((r) => r.service === service).map((r) => r.method))].join(', '),
    'access-control-allow-headers': CORS_ALLOWED_HEADERS.join(', '),
    // 0: not cached, so that every preflight reaches the stub and tests can see it.
    'access-control-max-age': '0',
  };
}

/** The headers of an answer: its content type, CORS, then its own. */
export function answerHeaders(r: StubResponse): Record<string, string> {
  return { 'content-type': r.contentType ?? 'application/json', ...CORS_HEADERS, ...r.headers };
}

/** How many requests a stub's `requests` keeps unless its `requestLogSize` option says otherwise: the last 1,000. */
export const DEFAULT_REQUEST_LOG_SIZE = 1000;

/**
 * The path of the request log on every stub, outside both APIs: `DELETE` empties the log (the CLI's
 * only way to reach it). Requests to it are not logged and get no fault.
 */
export const REQUEST_LOG_PATH = '/__stub/requests';

/**
 * The path of the fault state on every stub, beside the request log: `DELETE` forgets the
 * `x-stub-fault-times` counters and drops the queued faults (`failNext`, and `x-stub --fault`), as
 * `reset()` does, leaving the request log alone. Requests to it are not logged and get no fault.
 */
export const FAULTS_PATH = '/__stub/faults';

/**
 * The most `x-stub-fault-times` counters a stub keeps (one per `x-stub-fault-key`, or fault + method + URL):
 * 10,000. A new key past it forgets the oldest key first, so that a stub left running under distinct keys
 * stays small; a forgotten key counts from 0 again.
 */
export const MAX_FAULT_KEYS = 10_000;

/** The operation id of `failNext` that stands for every operation of the stub. */
export const ANY_OPERATION = '*';

export class StubEngine {
  readonly #log: RecordedRequest[] = [];
  readonly #logSize: number;
  readonly #route: Router;
  readonly #service: Service;
  readonly #operationIds: string[];
  readonly #attempts = new Map<string, number>();
  readonly #queued = new Map<string, Array<{ fault: Fault; left: number }>>();
  readonly #ownHeaders: (() => Record<string, string>) | undefined;
  readonly #preflightHeaders: Readonly<Record<string, string>>;

  /**
   * `ownHeaders`: headers the stub adds to every answer it gives (faults, errors and preflights included;
   * a `reset` writes nothing), computed when the answer is written; a header the router set on its
   * answer wins (the price stub's `x-stub-clock`).
   */
  constructor(service: Service, route: Router, requestLogSize: number = DEFAULT_REQUEST_LOG_SIZE, ownHeaders?: () => Record<string, string>) {
    if (!Number.isSafeInteger(requestLogSize) || requestLogSize < 0) {
      throw new StubArgumentError('requestLogSize', `must be a non-negative integer (how many requests to keep), got ${String(requestLogSize)}`);
    }
    this.#logSize = requestLogSize;
    this.#service = service;
    this.#operationIds = routes.filter((r) => r.service === service).map((r) => r.operationId);
    this.#route = route;
    this.#ownHeaders = ownHeaders;
    this.#preflightHeaders = preflightHeaders(service);
  }

  /** The stub's own headers; none when computing them throws (a caller's clock that throws still gets its answer: the router's 500). */
  #own(): Record<string, string> {
    try {
      return this.#ownHeaders?.() ?? {};
    } catch {
      return {};
    }
  }

  /** `r` with the stub's own headers (the router's, if it set them, win). */
  #stamp(r: StubResponse): StubResponse {
    return this.#ownHeaders === undefined ? r : { ...r, headers: { ...this.#own(), ...r.headers } };
  }

  #preflight(): Outcome {
    return { kind: 'preflight', headers: this.#ownHeaders === undefined ? this.#preflightHeaders : { ...this.#preflightHeaders, ...this.#own() } };
  }

  /**
   * The last `requestLogSize` requests received, oldest first (faulted ones and preflights too). The
   * same array throughout, trimmed to the bound whenever it is read here.
   */
  get requests(): RecordedRequest[] {
    this.#trim();
    return this.#log;
  }

  #record(request: RecordedRequest): void {
    if (this.#logSize === 0) return;
    this.#log.push(request);
    // Dropping the oldest on each request moves the whole array once V8 no longer trims its front in
    // place (tens of thousands of entries): quadratic under a flood. Dropping a log's worth at once costs
    // O(1) a request; memory stays under twice the bound, and a read trims to the bound exactly.
    if (this.#log.length >= 2 * this.#logSize) this.#trim();
  }

  #trim(): void {
    const over = this.#log.length - this.#logSize;
    if (over > 0) this.#log.splice(0, over);
  }

  /** Empties the request log; returns how many requests it held. */
  clearRequests(): number {
    const held = this.requests.length;
    this.#log.length = 0;
    return held;
  }

  /** The operation ids this stub serves, in spec order. */
  get operationIds(): string[] {
    return [...this.#operationIds];
  }

  /**
   * Queues `fault` for the next `times` requests of `operationId` (before any header fault); `'*'`
   * (`ANY_OPERATION`) for the requests of every operation, after the faults queued for the operation
   * itself. `times` may be `Infinity`: a stub that fails until `reset()`.
   */
  failNext(operationId: string, kind: FaultSpec, times = 1, options?: FaultOptions): void {
    if (operationId !== ANY_OPERATION && !this.#operationIds.includes(operationId)) {
      throw new StubArgumentError('operationId', `'${operationId}' is not an operation of this stub: one of ${this.operationIds.join(', ')}, or '${ANY_OPERATION}' for all`);
    }
    if (times !== Infinity && (!Number.isInteger(times) || times < 1)) {
      throw new StubArgumentError('times', `must be a positive integer or Infinity, got ${times}`);
    }
    const fault = faultFromSpec(kind, options);
    const queue = this.#queued.get(operationId) ?? [];
    queue.push({ fault, left: times });
    this.#queued.set(operationId, queue);
  }

  /** Empties the request log and forgets fault counters and queued faults. */
  reset(): void {
    this.#log.length = 0;
    this.clearFaults();
  }

  /** Forgets the fault counters and drops the queued faults; returns how many of each it held. */
  clearFaults(): { counters: number; queued: number } {
    const held = { counters: this.#attempts.size, queued: [...this.#queued.values()].reduce((n, q) => n + q.length, 0) };
    this.#attempts.clear();
    this.#queued.clear();
    return held;
  }

  /** Decides what a request gets. `url` is the path and query as sent; `body` what the transport read of a body, if any. */
  dispatch(method: string, url: string, headers: RequestHeaders, body?: RequestBody): Outcome {
    const outcome = this.#decide(method, url, headers, body);
    // A slow or truncated answer comes from `respond`, stamped already.
    return outcome.kind === 'answer' ? { kind: 'answer', response: this.#stamp(outcome.response) } : outcome;
  }

  #decide(method: string, url: string, headers: RequestHeaders, body: RequestBody | undefined): Outcome {
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    if (path === REQUEST_LOG_PATH || path === FAULTS_PATH) return this.#control(method, path);
    // The operation the path names, by the generated route table's one matcher (the router itself routes by it too).
    const route = matchRoute(path, { service: this.#service })?.route;
    const operationId = route?.operationId;
    const recorded: RecordedRequest = { method, url, headers: { ...headers } };
    if (operationId !== undefined) recorded.operationId = operationId;
    if (typeof body === 'string') recorded.body = body;
    this.#record(recorded);
    // A CORS preflight carries header names, never their values, so no fault applies to it.
    if (method === 'OPTIONS') return this.#preflight();

    // The routers answer a method their path is not served with by a 405 in their own error shape.
    const request = { method, path, query: new URLSearchParams(q === -1 ? '' : url.slice(q + 1)), headers };
    const withBody = body === undefined ? request : typeof body === 'string' ? { ...request, body } : { ...request, bodyTooLarge: true };
    const respond = (): StubResponse => {
      try {
        return this.#stamp(this.#route(withBody));
      } catch (err) {
        // A bug in the stub, not a fault on demand: still answer, and say what broke.
        return this.#stamp(errorResponse(500, 'stub_internal_error', err instanceof Error ? err.message : String(err)));
      }
    };

    // A queued fault waits for a request of its operation, with the operation's method (a DELETE of a GET's path is no request of it).
    const queued = method === route?.method ? (this.#queuedFault(operationId) ?? this.#queuedFault(ANY_OPERATION)) : undefined;
    const fault = queued ?? this.#headerFault(method, url, headers);
    if (fault === undefined) return { kind: 'answer', response: respond() };
    if ('response' in fault) return { kind: 'answer', response: fault.response };
    return outcomeOf(fault, url, respond);
  }

  /**
   * `DELETE /__stub/requests`: the log emptied, and how many requests it held; `DELETE /__stub/faults`:
   * the fault state forgotten, and how many counters and queued faults it held.
   */
  #control(method: string, path: string): Outcome {
    // A preflight gets the answer of any path: it allows the API's methods only, so a page of another origin cannot send the DELETE.
    if (method === 'OPTIONS') return this.#preflight();
    const what = path === FAULTS_PATH ? 'forgets the fault counters and queued faults' : 'empties the request log';
    if (method !== 'DELETE') {
      return { kind: 'answer', response: errorResponse(405, 'method_not_allowed', `${path} takes DELETE (${what})`, undefined, { allow: 'DELETE' }) };
    }
    const body = path === FAULTS_PATH ? this.clearFaults() : { cleared: this.clearRequests() };
    return { kind: 'answer', response: jsonResponse(200, body) };
  }

  #queuedFault(operationId: string | undefined): Fault | undefined {
    if (operationId === undefined) return undefined;
    const queue = this.#queued.get(operationId);
    const head = queue?.[0];
    if (queue === undefined || head === undefined) return undefined;
    if (--head.left === 0) queue.shift();
    return head.fault;
  }

  #headerFault(method: string, url: string, headers: RequestHeaders): Fault | { response: StubResponse } | undefined {
    const parsed = parseFaultHeaders(headers);
    if (parsed.error !== undefined) return { response: errorResponse(400, 'bad_fault_request', parsed.error) };
    if (parsed.fault === undefined || parsed.times === undefined) return parsed.fault;
    const key = parsed.key ?? `${headerValue(headers, FAULT_HEADERS.fault)?.trim().toLowerCase()} ${method} ${url}`;
    const seen = this.#attempts.get(key);
    // A Map keeps insertion order: its first key is the oldest, forgotten first past the bound.
    if (seen === undefined && this.#attempts.size >= MAX_FAULT_KEYS) this.#attempts.delete(this.#attempts.keys().next().value as string);
    this.#attempts.set(key, (seen ?? 0) + 1);
    return (seen ?? 0) >= parsed.times ? undefined : parsed.fault;
  }
}

function outcomeOf(fault: Fault, url: string, respond: () => StubResponse): Outcome {
  switch (fault.kind) {
    case 'status': {
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
      return {
        kind: 'answer',
        response: errorResponse(fault.status, 'stub_fault', `fault injected on demand: HTTP ${fault.status}`, undefined, headers),
      };
    }
    case 'redirect': {
      const location = redirectLocation(fault.location, url);
      if (typeof location !== 'string') {
        const message = `the ${FAULT_HEADERS.redirectTo} of this request makes a Location of ${location.tooLong} characters ({url} expanded); at most ${MAX_LOCATION_LENGTH}, what a client reads of a response's headers`;
        return { kind: 'answer', response: errorResponse(400, 'bad_fault_request', message) };
      }
      // no-store: a browser caches a 301 or 308, and would replay it without asking the stub again.
      const headers = { location, 'cache-control': 'no-store' };
      return {
        kind: 'answer',
        response: errorResponse(fault.status, 'stub_redirect', `redirect injected on demand: HTTP ${fault.status}`, undefined, headers),
      };
    }
    case 'slow':
      return { kind: 'slow', delayMs: fault.delayMs, respond };
    case 'reset':
      return { kind: 'reset' };
    case 'truncated': {
      const r = respond();
      const bytes = new TextEncoder().encode(r.body);
      const headers = { ...answerHeaders(r), 'content-length': String(bytes.length + 100) };
      return { kind: 'truncated', status: r.status, headers, half: bytes.subarray(0, Math.floor(bytes.length / 2)) };
    }
    case 'html':
      return { kind: 'answer', response: { status: 502, body: BAD_GATEWAY_HTML, contentType: 'text/html; charset=utf-8' } };
    case 'not-json':
      return { kind: 'answer', response: { status: 200, body: NOT_JSON_BODY, contentType: fault.contentType } };
  }
}
