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
  readonly method: string;
  readonly path: string;
  readonly params: readonly ParamSpec[];
};

/** What openapi-fetch's `request` resolves to. */
export type RawResult = { data?: unknown; error?: unknown; response: Response };

/**
 * Sends an operation's request without openapi-fetch, or returns undefined when it must go through
 * openapi-fetch (middleware is registered). `track(url, send)` runs the fetch, so that the transport
 * sees where a failure happened, as on the openapi-fetch path.
 */
export type DirectSend = (
  op: OperationSpec,
  path: Record<string, unknown>,
  query: Record<string, unknown>,
  signal: AbortSignal | undefined,
  track: (url: string, send: () => Promise<Response>) => Promise<Response>,
) => Promise<RawResult> | undefined;

/** The part of an openapi-fetch client the transport drives. */
export type RawRequester = {
  use(...middleware: unknown[]): void;
  eject(...middleware: unknown[]): void;
  request(
    method: 'get',
    path: never,
    init: {
      params: { path: Record<string, unknown>; query: Record<string, unknown> };
      parseAs: 'text';
      signal: AbortSignal | undefined;
      fetch: (request: Request) => Promise<Response>;
    },
  ): Promise<RawResult>;
};

export const DEFAULT_TIMEOUT_MS = 30_000;

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
   * Checks `args` against the operation's parameters (throwing `InvalidArgumentError` before any
   * request), then sends it and returns the parsed, optionally validated, body.
   */
  async call(operationId: string, op: OperationSpec, args: Record<string, unknown>, options: CallOptions = {}): Promise<unknown> {
    const path: Record<string, unknown> = {};
    const query: Record<string, unknown> = {};
    for (const spec of op.params) {
      const value = checkParam(spec, args[spec.name], this.#formats);
      if (value === undefined) continue;
      if (spec.in === 'path') path[spec.name] = value;
      else if (spec.in === 'query') query[spec.name] = value;
    }
    const signal = options.signal;
    signal?.throwIfAborted();
    const policy = this.#retry;
    const started = policy.now();
    for (let attempt = 1; ; attempt++) {
      let retryAfterMs: number | undefined;
      let failure: ClientError;
      try {
        const result = await this.#attempt(op, path, query, signal);
        if (result.kind === 'ok') return this.#validate(operationId, result.status, result.body);
        failure = result.error;
        retryAfterMs = result.retryAfterMs;
        if (!policy.statuses.includes(result.error.status)) throw failure;
        // Honour Retry-After: asking again sooner than the server said would only add load, so a
        // longer wait than this client will make ends the retries with the error.
        if (retryAfterMs !== undefined && retryAfterMs > policy.maxDelayMs) throw failure;
      } catch (err) {
        if (!(err instanceof NetworkError || err instanceof TimeoutError)) throw err;
        failure = err;
      }
      if (attempt >= policy.attempts) throw failure;
      const delay = backoffDelay(policy, attempt, retryAfterMs);
      if (policy.now() + delay - started > policy.maxElapsedMs) throw failure;
      await policy.sleep(delay, signal);
    }
  }

  async #attempt(
    op: OperationSpec,
    path: Record<string, unknown>,
    query: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<{ kind: 'ok'; status: number; body: unknown } | { kind: 'http'; error: HttpError; retryAfterMs: number | undefined }> {
    // Node 20's fetch pays ~20 µs to follow a request's AbortSignal (a WeakRef, a finalizer and a
    // listener per request: 7-10% of a loopback round trip). So until a timeout has shown that the
    // server can hang, a call without the caller's signal sends none: a timeout then ends the attempt
    // without aborting its request, whose connection is freed when the late answer has been read (or by
    // fetch's own limits). After this client's first timeout, every attempt carries a signal the timer aborts.
    const controller = signal || this.#abortable ? new AbortController() : undefined;
    let timedOut = false;
    let expire: (() => void) | undefined;
    const onAbort = (): void => controller?.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      timedOut = true;
      controller?.abort();
      expire?.();
    }, this.#timeoutMs);
    // The URL sent (middleware may replace the request); redacted only when an error shows it.
    let url = `${this.#baseUrl}${op.path}`;
    let status = 0;
    // Where a failure happened: in fetch itself (a network error) or after a response arrived (its
    // body could not be read). Anything else (a middleware's own error) is passed on unchanged.
    let stage = 'before' as 'before' | 'fetch-failed' | 'responded'; // `as`: set in track, unseen by narrowing
    const method = op.method.toUpperCase();
    // Promise callbacks rather than an async function: each async layer of a request delays the read of
    // its body by a few microtask turns, which costs fetch measurably more than the turns themselves.
    const track = (sent: string, send: () => Promise<Response>): Promise<Response> => {
      url = sent;
      return new Promise<Response>((resolve) => resolve(send())).then(
        (response) => {
          status = response.status;
          stage = 'responded';
          return response;
        },
        (err: unknown) => {
          stage = 'fetch-failed';
          throw err; // unwrapped, so that `onError` middleware sees fetch's own error
        },
      );
    };
    try {
      const sent =
        this.#direct?.(op, path, query, controller?.signal, track) ??
        this.#raw.request('get', op.path as never, {
          params: { path, query },
          parseAs: 'text',
          signal: controller?.signal,
          fetch: (request: Request) => track(request.url, () => this.#fetch(request)),
        });
      // Without a signal, the timer ends the attempt by rejecting this race; the request left behind
      // settles into the race's settled promise, so its outcome is never an unhandled rejection.
      const { data, error, response } = await (controller
        ? sent
        : new Promise<RawResult>((resolve, reject) => {
            expire = reject;
            sent.then(resolve, reject);
          }));
      if (!response.ok) {
        const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), this.#retry.now());
        const httpError = new HttpError({ status: response.status, statusText: response.statusText, body: error, method, url: redactUrl(url) });
        return { kind: 'http', error: httpError, retryAfterMs };
      }
      return { kind: 'ok', status: response.status, body: parseBody(data, response.status, method, url) };
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (timedOut) {
        this.#abortable = true;
        throw new TimeoutError({ method, url: redactUrl(url), timeoutMs: this.#timeoutMs });
      }
      if (err instanceof ClientError) throw err;
      if (stage === 'fetch-failed') throw new NetworkError({ method, url: redactUrl(url), cause: err });
      // The response started but its body could not be read to the end (reset, truncated).
      if (stage === 'responded') throw new ResponseParseError({ status, method, url: redactUrl(url), cause: err });
      throw err;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  #validate(operationId: string, status: number, body: unknown): unknown {
    if (!this.#validator) return body;
    const result = this.#validator(operationId, status, body);
    if (!result.ok) throw new ResponseValidationError({ operationId, issues: result.issues, body });
    return body;
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
 * with `raw.use()`, requests are sent with `fetch(url, init)`, without openapi-fetch building a `Request`
 * that fetch then copies (per request, the largest CPU cost of the client). The URL, headers and the
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
  return (op, path, query, signal, track) => {
    if (middleware.length > 0) return undefined;
    let parts = templates.get(op.path);
    if (parts === undefined) templates.set(op.path, (parts = op.path.split(/\{([^{}]+)\}/)));
    // As openapi-fetch's default serializers: path parameters (`simple` style) and query values
    // (`form`, primitives) percent-encoded with encodeURIComponent, the query in parameter order.
    let url = baseUrl;
    for (let i = 0; i < parts.length; i++) url += i % 2 === 0 ? parts[i] : encodeURIComponent(path[parts[i]!] as string);
    let separator = '?';
    for (const name in query) {
      url += `${separator}${name}=${encodeURIComponent(query[name] as string)}`;
      separator = '&';
    }
    const init = { method: op.method.toUpperCase(), headers, signal };
    return track(url, () => fetch(url, init)).then(readBody);
  };
}

/**
 * The body as openapi-fetch returns it with `parseAs: 'text'`: a success's text; an error's text,
 * parsed when it is JSON; no error body when the response announces an empty one.
 */
function readBody(response: Response): Promise<RawResult> {
  // A success's empty text and no text end in the same ResponseParseError, so only errors check.
  if (response.ok) return response.text().then((data) => ({ data, response }));
  return readErrorBody(response);
}

async function readErrorBody(response: Response): Promise<RawResult> {
  const length = response.headers.get('content-length');
  if (length === '0' && !response.headers.get('transfer-encoding')?.includes('chunked')) return { response };
  let error: unknown = await response.text();
  try {
    error = JSON.parse(error as string);
  } catch {
    // not JSON: the text
  }
  return { error, response };
}
