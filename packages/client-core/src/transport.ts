import {
  ClientError,
  HttpError,
  InvalidArgumentError,
  NetworkError,
  ResponseParseError,
  ResponseValidationError,
  TimeoutError,
  type ValidationIssue,
} from './errors.js';
import { checkParam, type FormatChecks, type ParamSpec } from './params.js';
import { redactUrl } from './redact.js';
import { backoffDelay, milliseconds, parseRetryAfter, resolveRetry, type RetryOptions, type RetryPolicy } from './retry.js';

/**
 * A response validator as `@x/validators` creates it (`createResponseValidator({ strict })`); the
 * clients take it as an option so that they carry no dependency on the validators.
 */
export type ResponseValidator = (
  operationId: string,
  status: number,
  body: unknown,
) => { readonly ok: true } | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

/** Options both clients accept. */
export type TransportOptions = {
  /** Base URL of the service, an `http:` or `https:` URL. */
  baseUrl?: string;
  /**
   * The fetch implementation, called with one `Request` per attempt (default: the global `fetch`; the
   * node client then calls it as `fetch(url, init)` while no `raw` middleware is registered).
   */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /**
   * Time limit of one attempt in milliseconds (default 30 000; at most 2^31-1, the timer limit). The
   * attempt then rejects with `TimeoutError`; its request is aborted too, except the client's first
   * timed-out request sent without a `signal` (see the README's "Timeouts and retries").
   */
  timeoutMs?: number;
  /** Retry policy, or `false` for a single attempt. */
  retry?: RetryOptions | false;
  /** Validates every success body; a failure throws `ResponseValidationError`. */
  validator?: ResponseValidator;
};

/** Per-call options of every operation. */
export type CallOptions = {
  /** Aborts the call; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
};

/** What the transport needs to know of an operation: the generated operation table's entry. */
export type OperationSpec = {
  /** Upper case, as fetch sends it and errors show it. */
  readonly method: string;
  readonly path: string;
  readonly params: readonly ParamSpec[];
};

/** What openapi-fetch's `request` resolves to. */
export type RawResult = { data?: unknown; error?: unknown; response: Response };

/**
 * One attempt as its sender reports it to the transport: the URL sent, the status received, where a
 * failure happened (in fetch itself, or after a response arrived), and its outcome.
 */
export type AttemptReport = {
  url: string;
  status: number;
  stage: 'before' | 'fetch-failed' | 'responded';
  /** A response arrived and its body was read (the text of a success, openapi-fetch's `error` of a failure). */
  done(data: unknown, error: unknown, response: Response): void;
  fail(err: unknown): void;
};

/**
 * Sends an operation's request without openapi-fetch and reports to `attempt`; returns false, having
 * done nothing, when it must go through openapi-fetch (middleware is registered).
 */
export type DirectSend = (
  op: OperationSpec,
  path: Record<string, unknown> | undefined,
  query: Record<string, unknown> | undefined,
  signal: AbortSignal | undefined,
  attempt: AttemptReport,
) => boolean;

/** The part of an openapi-fetch client the transport drives. */
export type RawRequester = {
  use(...middleware: unknown[]): void;
  eject(...middleware: unknown[]): void;
  request(
    method: 'get',
    path: never,
    init: {
      params: { path: Record<string, unknown> | undefined; query: Record<string, unknown> | undefined };
      parseAs: 'text';
      signal: AbortSignal | undefined;
      fetch: (request: Request) => Promise<Response>;
    },
  ): Promise<RawResult>;
};

export const DEFAULT_TIMEOUT_MS = 30_000;

/** One call in flight: what its attempts send, and how it ends. */
type Send = {
  readonly operationId: string;
  readonly op: OperationSpec;
  /** Undefined when the call has no such parameters. */
  readonly path: Record<string, unknown> | undefined;
  readonly query: Record<string, unknown> | undefined;
  readonly signal: AbortSignal | undefined;
  /** When the first attempt started (the retry policy's clock). */
  readonly started: number;
  readonly resolve: (body: unknown) => void;
  readonly reject: (reason: unknown) => void;
};

/** Runs operations: checks arguments, sends, times out, retries, parses and validates. */
export class Transport {
  readonly #raw: RawRequester;
  readonly #fetch: (request: Request) => Promise<Response>;
  readonly #timeoutMs: number;
  readonly #retry: RetryPolicy;
  readonly #validator: ResponseValidator | undefined;
  readonly #baseUrl: string;
  readonly #direct: DirectSend | undefined;
  readonly #formats: FormatChecks | undefined;
  /** Set by the first timeout: from then on every attempt carries an AbortSignal (see `#attempt`). */
  #abortable = false;

  /**
   * `client` holds what differs between the clients: the statuses retried by default, the `direct`
   * sender (from {@link directSender}) used while no middleware is registered, and the format checks
   * of the spec's parameters.
   */
  constructor(
    raw: RawRequester,
    baseFetch: (request: Request) => Promise<Response>,
    options: TransportOptions & { baseUrl: string },
    client: { retryStatuses?: readonly number[]; direct?: DirectSend; formats?: FormatChecks } = {},
  ) {
    parseBaseUrl(options.baseUrl);
    this.#raw = raw;
    this.#fetch = baseFetch;
    // Infinity or more than 2^31-1 ms would make setTimeout fire at once: every call would time out.
    this.#timeoutMs = milliseconds('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 1);
    this.#retry = resolveRetry(options.retry, client.retryStatuses);
    this.#validator = options.validator;
    this.#baseUrl = options.baseUrl;
    this.#direct = client.direct;
    this.#formats = client.formats;
  }

  /**
   * Checks `args` against the operation's parameters (rejecting with `InvalidArgumentError` before any
   * request), then sends it and resolves to the parsed, optionally validated, body.
   */
  call(operationId: string, op: OperationSpec, args: Record<string, unknown>, options?: CallOptions): Promise<unknown> {
    // No object the call does not need (no default `options`, no empty `path` or `query`): on loopback,
    // what a call allocates costs throughput well beyond its CPU time (see the README's Benchmarks).
    let path: Record<string, unknown> | undefined;
    let query: Record<string, unknown> | undefined;
    const signal = options?.signal;
    try {
      for (const spec of op.params) {
        const value = checkParam(spec, args[spec.name], this.#formats);
        if (value === undefined) continue;
        if (spec.in === 'path') (path ??= {})[spec.name] = value;
        else if (spec.in === 'query') (query ??= {})[spec.name] = value;
      }
      signal?.throwIfAborted();
    } catch (err) {
      return Promise.reject(err);
    }
    // One promise for the whole call, retries included, settled from the attempts' callbacks: each
    // promise layer between fetch and the caller costs a round trip more than its own few microseconds.
    return new Promise((resolve, reject) => {
      const send: Send = { operationId, op, path, query, signal, started: this.#retry.now(), resolve, reject };
      this.#attempt(send, 1);
    });
  }

  #attempt(send: Send, attempt: number): void {
    const { op, signal } = send;
    // Node 20's fetch pays ~20 µs to follow a request's AbortSignal (a WeakRef, a finalizer and a
    // listener per request: 7-10% of a loopback round trip). So until a timeout has shown that the
    // server can hang, a call without the caller's signal sends none: a timeout then ends the attempt
    // without aborting its request, whose connection is freed when the late answer has been read (or by
    // fetch's own limits). After this client's first timeout, every attempt carries a signal the timer aborts.
    const controller = signal || this.#abortable ? new AbortController() : undefined;
    const onAbort = signal && ((): void => controller?.abort(signal.reason));
    if (onAbort) signal.addEventListener('abort', onAbort, { once: true });
    // Set once the attempt has an outcome; a request left behind by a timeout settles into nothing.
    let over = false;
    const end = (): boolean => {
      if (over) return false;
      over = true;
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
      return true;
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // With a signal, the request's rejection ends the attempt (as a timeout); without one, this does.
      if (controller) controller.abort();
      else report.fail(undefined);
    }, this.#timeoutMs);
    const method = op.method;
    const report: AttemptReport = {
      // The URL sent (middleware may replace the request); redacted only when an error shows it.
      url: this.#baseUrl + op.path,
      status: 0,
      // Where a failure happened; a failure before fetch (a middleware's own error) is passed on unchanged.
      stage: 'before',
      done: (data, error, response) => {
        if (!end()) return;
        const { status, ok } = response;
        if (!ok) {
          const httpError = new HttpError({ status, statusText: response.statusText, body: error, method, url: redactUrl(report.url) });
          return this.#failed(send, attempt, httpError, parseRetryAfter(response.headers.get('retry-after'), this.#retry.now()));
        }
        try {
          const body = parseBody(data, status, method, report.url);
          const result = this.#validator?.(send.operationId, status, body);
          if (result && !result.ok) throw new ResponseValidationError({ operationId: send.operationId, issues: result.issues, body });
          send.resolve(body);
        } catch (err) {
          send.reject(err);
        }
      },
      fail: (err) => {
        if (!end()) return;
        const url = redactUrl(report.url);
        let failure = err; // a ClientError (ours, or a middleware's), or an error before fetch: unchanged
        if (signal?.aborted) failure = signal.reason;
        else if (timedOut) {
          this.#abortable = true;
          failure = new TimeoutError({ method, url, timeoutMs: this.#timeoutMs });
        } else if (!(err instanceof ClientError)) {
          if (report.stage === 'fetch-failed') failure = new NetworkError({ method, url, cause: err });
          // The response started but its body could not be read to the end (reset, truncated).
          else if (report.stage === 'responded') failure = new ResponseParseError({ status: report.status, method, url, cause: err });
        }
        this.#failed(send, attempt, failure);
      },
    };
    // Runs openapi-fetch's fetch so that a failure's stage is known.
    const track = (request: Request): Promise<Response> => {
      report.url = request.url;
      report.stage = 'fetch-failed'; // until a response arrives (a custom fetch may also throw at once)
      return new Promise<Response>((resolve) => resolve(this.#fetch(request))).then((response) => {
        report.status = response.status;
        report.stage = 'responded';
        return response;
      }); // a rejection unchanged, so that `onError` middleware sees fetch's own error
    };
    try {
      if (!this.#direct?.(op, send.path, send.query, controller?.signal, report)) {
        this.#raw
          .request('get', op.path as never, { params: { path: send.path, query: send.query }, parseAs: 'text', signal: controller?.signal, fetch: track })
          .then(({ data, error, response }) => report.done(data, error, response), report.fail);
      }
    } catch (err) {
      report.fail(err); // e.g. a path value encodeURIComponent refuses: ends like any failure
    }
  }

  /** Ends the call with `failure`, or retries when the policy allows it. */
  #failed(send: Send, attempt: number, failure: unknown, retryAfterMs?: number): void {
    const policy = this.#retry;
    const retryable =
      failure instanceof HttpError
        ? policy.statuses.includes(failure.status) &&
          // Honour Retry-After: asking again sooner than the server said would only add load, so a
          // longer wait than this client will make ends the retries with the error.
          !(retryAfterMs !== undefined && retryAfterMs > policy.maxDelayMs)
        : failure instanceof NetworkError || failure instanceof TimeoutError;
    const delay = retryable && attempt < policy.attempts ? backoffDelay(policy, attempt, retryAfterMs) : -1;
    if (delay < 0 || policy.now() + delay - send.started > policy.maxElapsedMs) return send.reject(failure);
    policy.sleep(delay, send.signal).then(() => this.#attempt(send, attempt + 1), send.reject);
  }
}

/**
 * Reads a client's `baseUrl`: an absolute http(s) URL without credentials, query or fragment (anything
 * else fails later, confusingly). The value is never echoed: a malformed URL may still carry a secret.
 *
 * @example
 * ```ts
 * parseBaseUrl('http://localhost:27000/').href; // 'http://localhost:27000/'
 * ```
 */
export function parseBaseUrl(value: unknown): URL {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new InvalidArgumentError('baseUrl', 'must be an absolute http: or https: URL');
  }
  // fetch refuses such URLs (a TypeError on every call); headers are the place for credentials.
  if (url.username !== '' || url.password !== '') {
    throw new InvalidArgumentError('baseUrl', 'must not contain credentials; send them with the `headers` option');
  }
  // Paths are appended to the base URL, so a query or fragment in it would end up before them.
  if (url.search !== '' || url.hash !== '') {
    throw new InvalidArgumentError('baseUrl', 'must not contain a query or fragment');
  }
  return url;
}

function parseBody(text: unknown, status: number, method: string, url: string): unknown {
  if (typeof text !== 'string' || text.length === 0) {
    throw new ResponseParseError({ status, method, url: redactUrl(url), bodySnippet: '', cause: new Error('empty body') });
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ResponseParseError({ status, method, url: redactUrl(url), bodySnippet: text.slice(0, 200), cause: err });
  }
}

/**
 * The node client's fetch for its `fetch` option. A custom fetch keeps its contract (one `Request`);
 * without one the global fetch takes `(url, init)` as it is: building a `Request` and letting fetch
 * build its own from it costs about twice the CPU of building one.
 *
 * @example
 * ```ts
 * const send = fetchOf(undefined); // the global fetch, looked up on every call
 * await send('http://localhost:27000/rpc/v2/accounts/0x1', { method: 'GET' });
 * ```
 */
export function fetchOf(custom: ((request: Request) => Promise<Response>) | undefined): FetchLike {
  if (custom === undefined) return (input, init) => globalThis.fetch(input, init);
  return (input, init) => custom(typeof input === 'string' ? new Request(input, init) : input);
}

/** The standard fetch shape: called with a `Request` by openapi-fetch, with `(url, init)` directly. */
export type FetchLike = (input: string | Request, init?: RequestInit) => Promise<Response>;

/**
 * A {@link DirectSend} for a client created with `raw` and `options`: while no middleware is registered
 * with `raw.use()`, requests are sent with `fetch(url)` (`fetch(url, init)` with headers or a signal),
 * without openapi-fetch building a `Request` that fetch then copies (per request, the largest CPU cost of the client). The URL, headers and the
 * body read are the ones openapi-fetch would produce with its defaults; any middleware switches calls
 * back to openapi-fetch, and ejecting it switches them back.
 *
 * @example
 * ```ts
 * const send = fetchOf(options.fetch);
 * const raw = createClient<paths>({ baseUrl, fetch: send, headers: options.headers });
 * const transport = new Transport(raw, send, { ...options, baseUrl }, { direct: directSender(raw, send, baseUrl, options.headers) });
 * ```
 */
export function directSender(raw: RawRequester, fetch: FetchLike, baseUrl: string, headerOption?: Record<string, string>): DirectSend {
  // openapi-fetch does not expose its middleware list, so it is mirrored: `use` and `eject` forward
  // one item at a time, which keeps their semantics (falsy items skipped, an invalid one throws after
  // the ones before it were added, `eject` removes the first occurrence of each).
  const middleware: unknown[] = [];
  const { use, eject } = raw;
  raw.use = (...list) => {
    for (const m of list) {
      use.call(raw, m);
      if (m) middleware.push(m);
    }
  };
  raw.eject = (...list) => {
    for (const m of list) {
      eject.call(raw, m);
      const i = middleware.indexOf(m);
      if (i !== -1) middleware.splice(i, 1);
    }
  };
  // Merged once, as openapi-fetch merges them (a null or undefined value is left out), in the order its
  // Headers object sends them. None at all is cheaper for fetch than an empty list.
  const merged = new Headers();
  for (const [name, value] of Object.entries(headerOption ?? {})) if (value != null) merged.set(name, value);
  const headers = headerOption && [...merged];
  // Each path template split once at its `{name}` parts: literal, name, literal, ...
  const templates = new Map<string, string[]>();
  return (op, path, query, signal, attempt) => {
    if (middleware.length > 0) return false;
    let parts = templates.get(op.path);
    // The base URL joined to the first literal once, too: a string less per call (a parsed href has no braces).
    if (parts === undefined) templates.set(op.path, (parts = (baseUrl + op.path).split(/\{([^{}]+)\}/)));
    // As openapi-fetch's default serializers: path parameters (`simple` style) and query values
    // (`form`, primitives) percent-encoded with encodeURIComponent, the query in parameter order.
    let url = parts[0]!;
    for (let i = 1; i < parts.length; i++) url += i % 2 === 0 ? parts[i] : encodeURIComponent(path![parts[i]!] as string);
    let separator = '?';
    for (const name in query) {
      url += `${separator}${name}=${encodeURIComponent(query[name] as string)}`;
      separator = '&';
    }
    attempt.url = url;
    attempt.stage = 'fetch-failed'; // until a response arrives (a custom fetch may also throw at once)
    // Only the promise steps fetch itself needs: each further step and object per request costs a
    // loopback round trip several times its own CPU (more garbage, later socket writes). And `fetch(url)`
    // when nothing differs from its defaults: an init makes fetch's Request do more work.
    (headers || signal || op.method !== 'GET' ? fetch(url, { method: op.method, headers, signal }) : fetch(url)).then((response) => {
      attempt.status = response.status;
      attempt.stage = 'responded';
      // Read even after a timeout ended the attempt: that frees the connection of the request left behind.
      if (response.ok) response.text().then((data) => attempt.done(data, undefined, response), attempt.fail);
      else readErrorBody(response).then((error) => attempt.done(undefined, error, response), attempt.fail);
    }, attempt.fail);
    return true;
  };
}

/**
 * An error's body as openapi-fetch returns it with `parseAs: 'text'`: the text, parsed when it is
 * JSON; none when the response announces an empty one. (A success's empty text and no text end in the
 * same ResponseParseError, so only errors check.)
 */
async function readErrorBody(response: Response): Promise<unknown> {
  const length = response.headers.get('content-length');
  if (length === '0' && !response.headers.get('transfer-encoding')?.includes('chunked')) return undefined;
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text; // not JSON
  }
}
