import type { ResponseValidator } from '@x/common';
import {
  ClientError,
  HttpError,
  InvalidArgumentError,
  NetworkError,
  ResponseParseError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
} from './errors.js';
import { parseBaseUrl } from './base-url.js';
import type { CallOptions, NodeAffinity, OperationSpec, RoutingFactory, Router, TransportOptions } from './options.js';
import { checkInteger, checkParam, type FormatChecks } from './params.js';
import { checkEcho } from './echo.js';
import { foreignAnswer, isRedirect, OtherOrigin, sendWithinOrigin } from './redirects.js';
import { redactUrl } from './redact.js';
import { backoffDelay, milliseconds, parseRetryAfter, resolveRetry, withRetry, type RetryPolicy } from './retry.js';
import { BodyTooLarge, readText } from './read-text.js';
import { checkPath, requestUrl } from './url.js';

export const DEFAULT_TIMEOUT_MS = 30_000;
/** `maxResponseBytes` unless configured: 16 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** The most `maxResponseBytes` may be: 512 MiB, near the longest string a JavaScript engine makes. */
const MAX_RESPONSE_BYTES_LIMIT = 512 * 1024 * 1024;
/** How much of an error body is kept: enough for any message, and nothing a node can flood. */
const ERROR_BODY_BYTES = 64 * 1024;

/** What differs between the clients. */
export type TransportConfig = {
  /**
   * The router for several nodes, a rate limit, hedging and the attempt hook (`nodeRouting` from
   * `./routing.js`); a client without it takes one base URL and none of those options, and does not
   * bundle the router.
   */
  routing?: RoutingFactory;
  /**
   * How long an error body of a 429 or 503 without `Retry-After` asks the client to wait, in ms (the node
   * client: Supra's `Please try again in 1.5s`); honoured as a `Retry-After` is.
   */
  retryAfterFromBody?: (body: unknown) => number | undefined;
  /**
   * An error body's message as this client's service writes it (the node client: Rust's `Some("...")`
   * unwrapped); by default its `message` field. What it answers is shown in `HttpError`'s message.
   */
  messageOf?: (body: unknown) => unknown;
  /**
   * A check of every answer's headers before its body is read, error answers included (the node client:
   * its chain id, so that a 410 of another chain is no `HistoryPrunedError`); what it returns ends the
   * attempt, and with several nodes moves the call on.
   */
  checkAnswer?: (headers: Headers, request: { readonly method: string; readonly url: string }) => ClientError | undefined;
  /** The error of an answer that is not a success, when this service's says more than an `HttpError` (the node client: a 410's oldest block). */
  httpError?: (init: ConstructorParameters<typeof HttpError>[0]) => HttpError;
  /**
   * The answer of a checked, parsed success body with its headers (the node client: a listing whose next
   * cursor is a response header answers `{ items, cursor }`); by default the body.
   */
  answer?: (body: unknown, headers: Headers, op: OperationSpec, operationId: string) => unknown;
  /** Statuses retried unless the user's `retry.statuses` says otherwise. */
  retryStatuses?: readonly number[];
  /** Checks of the spec's parameter `format`s (the node client's u64). */
  formats?: FormatChecks;
  /**
   * The paths the client appends to a base URL (`/rpc/v2`, `/history`, ...): a `baseUrl` that ends in
   * one is refused with the base URL meant.
   */
  apiPaths?: readonly string[];
};




/**
 * Runs operations: checks arguments, sends, times out, retries, reads, parses and validates. One send
 * path for every call: the URL built by `requestUrl` (`./url.js`), and `fetch(url, init)` unless the
 * client was given a custom `fetch`, which is called with one `Request` per attempt (a `Request` built
 * only for it: on loopback, a Request per call costs ~15% throughput). The custom `fetch` is the way to
 * observe or alter requests.
 *
 * Every call ends: a timeout or a caller's abort settles the attempt on the transport's own timer or
 * listener, aborts its request and cancels its body, without waiting for fetch to notice. The signal
 * fetch follows is the attempt's own, passed directly (a signal followed through a copied Request is
 * lost when the copy is collected: nodejs/undici#4068), and a Request the transport built is held until
 * the attempt ends.
 *
 * @example
 * ```ts
 * const transport = new Transport<paths>({ baseUrl: 'http://localhost:27000', timeoutMs: 5_000 });
 * const body = await transport.call('getAccountV2', operations.getAccountV2, { address: '0x1' });
 * ```
 *
 * @typeParam _Paths - unused since the transport has no openapi-fetch client of its own; kept so that
 * `new Transport<paths>(...)` still compiles.
 */
export class Transport<_Paths extends object = Record<string, never>> {
  readonly #custom: ((request: Request) => Promise<Response>) | undefined;
  readonly #headers: [string, string][] | undefined;
  readonly #timeoutMs: number;
  readonly #retry: RetryPolicy;
  readonly #retryDelay: (error: unknown, attempt: number) => number | undefined;
  readonly #validator: ResponseValidator | undefined;
  readonly #baseUrl: string;
  readonly #formats: FormatChecks | undefined;
  /** Several nodes, a rate limit or an attempt hook; none (one node, no limit, no hook): the direct path. */
  readonly #router: Router | undefined;
  readonly #retryAfterFromBody: ((body: unknown) => number | undefined) | undefined;
  readonly #messageOf: ((body: unknown) => unknown) | undefined;
  readonly #checkAnswer: TransportConfig['checkAnswer'];
  readonly #httpError: TransportConfig['httpError'];
  readonly #answer: TransportConfig['answer'];
  readonly #maxBytes: number;
  /** The operations whose path is known to join under the base URL (`checkPath`), so it is checked once. */
  readonly #joined = new WeakSet<OperationSpec>();

  constructor(options: TransportOptions & { baseUrl: string | readonly string[] }, config: TransportConfig = {}) {
    this.#custom = options.fetch;
    // Infinity or more than 2^31-1 ms would make setTimeout fire at once: every call would time out.
    this.#timeoutMs = milliseconds('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 1);
    this.#maxBytes = checkInteger('maxResponseBytes', options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, 1, MAX_RESPONSE_BYTES_LIMIT);
    checkHeaders(options.headers);
    const policy = (this.#retry = resolveRetry(options.retry, config.retryStatuses));
    this.#retryDelay = (error, attempt) => retryDelay(policy, error, attempt);
    this.#validator = options.validator;
    this.#formats = config.formats;
    // The router takes several nodes, a rate limit, hedging and the hook; without those, no router: the
    // direct path. A client without routing (the price client) bundles none of it, and refuses them.
    const router = config.routing?.({ baseUrl: options.baseUrl, apiPaths: config.apiPaths ?? [], options, policy, retryDelay: this.#retryDelay, attempt: (a) => this.#attempt(a.operationId, a.op, a.path, a.query, a.signal, a.baseUrl, a.body) });
    if (!router) {
      for (const k of ['rateLimit', 'hedgeAfterMs', 'onAttempt'] as const) if (options[k] !== undefined) throw new InvalidArgumentError(k, 'is not supported by this client');
      parseBaseUrl(options.baseUrl, config.apiPaths);
    }
    this.#router = router;
    this.#retryAfterFromBody = config.retryAfterFromBody;
    this.#messageOf = config.messageOf;
    this.#checkAnswer = config.checkAnswer;
    this.#httpError = config.httpError;
    this.#answer = config.answer;
    this.#baseUrl = router ? router.urls[0]! : (options.baseUrl as string);
    // Merged once; none at all is cheaper for fetch than an empty list.
    this.#headers = mergeHeaders(options.headers);
  }

  /** One request as it leaves, below the redirect rule: the custom fetch or the global one. */
  readonly #send = (request: Request): Promise<Response> => (this.#custom ?? globalThis.fetch)(request);

  /**
   * Checks `args` against the operation's parameters (rejecting with `InvalidArgumentError` before any
   * request), then sends it and resolves to the parsed, optionally validated, body. An operation with a
   * request body takes its JSON text as `args.body` (see `requestBody`).
   */
  call(operationId: string, op: OperationSpec, args: Record<string, unknown>, options?: CallOptions, affinity?: NodeAffinity): Promise<unknown> {
    let path: Record<string, unknown> | undefined;
    let query: Record<string, unknown> | undefined;
    const signal = options?.signal;
    try {
      // An ad-hoc operation's path may not leave the base URL (a generated one never does: once each).
      if (!this.#joined.has(op)) {
        checkPath(this.#baseUrl, op.path);
        this.#joined.add(op);
      }
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
    // A body comes as its JSON text, made and checked by `requestBody` (the node client's POST reads do).
    let body: string | undefined;
    if (op.body !== undefined) {
      if (typeof args.body !== 'string') return Promise.reject(new InvalidArgumentError('body', 'must be JSON text made by requestBody'));
      body = args.body;
    }
    if (this.#router) return this.#router.call({ operationId, op, path, query, body, signal }, affinity);
    return withRetry(() => this.#attempt(operationId, op, path, query, signal, this.#baseUrl, body), this.#retry, this.#retryDelay, signal);
  }

  /** One attempt: settles on the first of its response, its timer and the caller's abort. */
  #attempt(
    operationId: string,
    op: OperationSpec,
    path: Record<string, unknown> | undefined,
    query: Record<string, unknown> | undefined,
    signal: AbortSignal | undefined,
    baseUrl: string,
    body?: string,
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const { method } = op;
      const controller = new AbortController();
      // The URL sent (as the Request reads it, when there is one); redacted only when an error shows it.
      let url = baseUrl + op.path;
      let stage: 'before' | 'fetch-failed' | 'responded' = 'before';
      let status = 0;
      // Why a redirect was not followed, when one was not.
      let refused: string | undefined;
      const onRefused = (why: string): void => {
        refused = why;
      };
      // Holds a Request the transport built until the attempt ends (see the class doc).
      const held: { request?: Request | undefined } = {};
      // The body being read, for a timeout or abort to cancel.
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
      let over = false;
      const end = (): boolean => {
        if (over) return false;
        over = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        held.request = undefined;
        return true;
      };
      /** Ends the attempt from outside (timeout, caller's abort): settle now, then stop the request. */
      const stop = (reason: unknown): void => {
        if (!end()) return;
        reject(reason);
        controller.abort(reason);
        // Without waiting for fetch to follow the signal: a body being read is cancelled directly.
        reader?.cancel(reason).catch(noop);
      };
      const onAbort = (): void => stop(signal!.reason);
      const timer = setTimeout(() => stop(new TimeoutError({ method, url: redactUrl(url), timeoutMs: this.#timeoutMs })), this.#timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      // A signal that aborted before the attempt began (a router's attempt waits a tick) fires no event.
      if (signal?.aborted) return stop(signal.reason);

      const fail = (err: unknown): void => {
        if (!end()) return;
        if (err instanceof ClientError) return reject(err); // ours, or a custom fetch's
        const where = redactUrl(url);
        if (err instanceof BodyTooLarge) return reject(new ResponseTooLargeError({ status, method, url: where, limitBytes: err.limitBytes }));
        if (stage === 'fetch-failed') reject(networkError(method, where, err));
        // The response started but its body could not be read to the end (reset, truncated).
        else if (stage === 'responded') {
          reject(new ResponseParseError({ status, method, url: where, cause: err }));
        }
        else reject(err); // before fetch (a parameter value encodeURIComponent or Request refuses)
      };
      const received = async (response: Response): Promise<void> => {
        // The direct path sends without a Request (see the class doc), so its redirects are followed
        // here, and only when there is one; a hop that fails is a fetch failure like the first.
        if (direct !== undefined && isRedirect(response) && !over) {
          response = await sendWithinOrigin(this.#send, (held.request = new Request(direct.url, direct.init)), { first: response, onRefused });
        }
        status = response.status;
        stage = 'responded';
        if (over) {
          // Too late: nobody reads this body, so release the connection now.
          response.body?.cancel().catch(noop);
          return;
        }
        // Another origin's answer (a custom fetch that followed a redirect itself) is never the node's. Then
        // every answer's headers, errors included: a 410 of another chain says nothing of this one's history.
        const foreign = foreignAnswer(response, url);
        const refusal = foreign ? networkError(method, redactUrl(url), foreign) : this.#checkAnswer?.(response.headers, { method, url: redactUrl(url) });
        if (refusal) {
          response.body?.cancel().catch(noop);
          if (end()) reject(refusal);
          return;
        }
        // Counted as it streams, decoded: a Content-Length says nothing of a gzip body's size, and reading
        // it costs every call a header lookup or two.
        const limit = response.ok ? this.#maxBytes : Math.min(this.#maxBytes, ERROR_BODY_BYTES);
        reader = response.body?.getReader();
        // An error body is kept even when it is cut short: the status is the answer.
        const text = reader === undefined ? '' : await readText(reader, !response.ok, limit);
        if (!end()) return;
        if (!response.ok) {
          const body = errorBody(text);
          const { headers } = response;
          const retryAfterMs =
            parseRetryAfter(headers.get('retry-after'), this.#retry.now()) ?? (status === 429 || status === 503 ? this.#retryAfterFromBody?.(body) : undefined);
          return reject(
            (this.#httpError ?? newHttpError)({
              status, statusText: response.statusText, body, method, url: redactUrl(url), headers, retryAfterMs,
              // Why a redirect was not followed says more than its body; else the service's own message.
              ...((refused !== undefined || this.#messageOf) && { message: refused ?? this.#messageOf!(body) }),
            }),
          );
        }
        try {
          const parsed = parseBody(text, status, method, url);
          const result = this.#validator?.(operationId, status, parsed);
          if (result && !result.ok) throw new ResponseValidationError({ operationId, issues: result.issues, body: parsed });
          // Inside the attempt, so that with several nodes an answer to another request moves the call on.
          if (op.echo) checkEcho(operationId, op.echo, parsed, path);
          resolve(this.#answer ? this.#answer(parsed, response.headers, op, operationId) : parsed);
        } catch (err) {
          reject(err); // the attempt has ended: `fail` would drop it
        }
      };

      let sending: Promise<Response>;
      // The URL the direct path sent, without a Request: its redirects are followed in `received`.
      let direct: { url: string; init: RequestInit } | undefined;
      try {
        url = requestUrl(baseUrl, op.path, path, query);
        const init: RequestInit = { method, headers: this.#headers, signal: controller.signal, redirect: 'manual' };
        if (body !== undefined) {
          init.body = body;
          // The body's type is the operation's, whatever the `headers` option says (fetch would join both).
          init.headers = [...(this.#headers ?? []).filter(([name]) => name !== 'content-type'), ['content-type', 'application/json']];
        }
        if (this.#custom === undefined) {
          stage = 'fetch-failed';
          // No Request unless there is a redirect to follow (see the class doc on what a Request costs).
          direct = { url, init };
          sending = fetch(url, init);
        } else {
          const request = (held.request = new Request(url, init));
          url = request.url;
          stage = 'fetch-failed'; // until a response arrives (a custom fetch may also throw at once)
          // Async: a custom fetch that throws at once is a rejection here too.
          sending = sendWithinOrigin(this.#send, request, { onRefused });
        }
      } catch (err) {
        // A value encodeURIComponent or Request refuses (a lone surrogate, say): the attempt ends like any
        // failure, so its timer and abort listener go with it.
        return fail(err);
      }
      sending.then(received).catch(fail);
    });
  }
}

function noop(): void {}

const newHttpError = (init: ConstructorParameters<typeof HttpError>[0]): HttpError => new HttpError(init);

/** An HTTP header name (RFC 9110's token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A header value fetch sends as it is: tab, and visible Latin-1 or space, nothing else (no CR, LF or NUL). */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Refuses headers fetch would refuse on every call (a CR or LF in a key read from a file, say), with an
 * `InvalidArgumentError` naming `parameter` and the header but never echoing a value, which may be a
 * secret. Clients call it where they take headers (the transport does for `headers`).
 *
 * @example
 * ```ts
 * checkHeaders({ 'x-api-key': 'abc\r\n' }, 'apiKey'); // throws: Invalid argument 'apiKey': the value of x-api-key must be ...
 * ```
 */
export function checkHeaders(headers: unknown, parameter = 'headers'): void {
  if (headers === undefined) return;
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) throw new InvalidArgumentError(parameter, 'must be an object of header names to values');
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || value === null) continue; // left out (see mergeHeaders)
    if (!TOKEN.test(name)) throw new InvalidArgumentError(parameter, `${JSON.stringify(name.slice(0, 64))} is not a valid header name`);
    // Numbers and lists are sent as text, a list one header value per item (see mergeHeaders).
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (!values.every((v) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') && FIELD_VALUE.test(String(v)))) {
      throw new InvalidArgumentError(parameter, `the value of ${name} must be a string of visible Latin-1 characters (no CR, LF or NUL)`);
    }
  }
}

/**
 * The `headers` option as the transport sends it, merged once: a null or undefined value left out, a
 * list one value per item (fetch joins them with `, ` on one line), numbers and booleans as text, the
 * names lowercased and in order, as fetch's `Headers` lists them (the merge openapi-fetch made); none
 * when there are none. Checked by `checkHeaders` before.
 */
function mergeHeaders(headers: Readonly<Record<string, unknown>> | Headers | undefined): [string, string][] | undefined {
  if (headers === undefined) return undefined;
  const merged = new Headers();
  // A Headers object (from JavaScript: the type does not allow it) by its entries, as openapi-fetch read it.
  for (const [name, value] of headers instanceof Headers ? headers.entries() : Object.entries(headers)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value as unknown[]) merged.append(name, String(item));
    else merged.set(name, String(value));
  }
  const list = [...merged];
  return list.length > 0 ? list : undefined;
}

/** What browsers' fetch rejects with, as a TypeError, when no response may be read (Chromium, Firefox, Safari). */
const BROWSER_FETCH_FAILURES = ['Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Load failed'];

/**
 * A `NetworkError` for a fetch failure. A browser's fetch rejects a request its CORS check refused
 * exactly as it rejects one that reached no server, so its message says both.
 */
function networkError(method: string, url: string, cause: unknown): NetworkError {
  const error = new NetworkError({ method, url, cause });
  // By name, not instanceof: the price client rethrows fetch failures as text-only copies.
  if (cause instanceof Error && cause.name === 'TypeError' && BROWSER_FETCH_FAILURES.includes(cause.message)) {
    error.message +=
      ' (in a browser, a CORS rejection looks the same: the server must allow this origin, answer the preflight and allow the request headers; the browser console says which)';
  }
  return error;
}


/**
 * The delay before retrying after `error` (attempt `attempt` failed), or undefined when it is not
 * retried: network errors, timeouts and the policy's statuses are, honouring `Retry-After`.
 */
function retryDelay(policy: RetryPolicy, error: unknown, attempt: number): number | undefined {
  if (error instanceof HttpError) {
    if (!policy.statuses.includes(error.status)) return undefined;
    const retryAfter = error.retryAfterMs;
    // Asking again sooner than the server said would only add load, so a longer wait than this client
    // will make ends the retries with the error.
    if (retryAfter !== undefined && retryAfter > policy.maxDelayMs) return undefined;
    return backoffDelay(policy, attempt, retryAfter);
  }
  // An answer of another origin would come again: the fetch or the browser that followed it is the same.
  return (error instanceof NetworkError && !(error.cause instanceof OtherOrigin)) || error instanceof TimeoutError ? backoffDelay(policy, attempt, undefined) : undefined;
}

/** An error body as `HttpError.body` holds it: parsed when it is JSON, else the text; none when empty. */
function errorBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text; // not JSON, or cut short
  }
}

function parseBody(text: string, status: number, method: string, url: string): unknown {
  if (text.length === 0) {
    throw new ResponseParseError({ status, method, url: redactUrl(url), bodySnippet: '', cause: new Error('empty body') });
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ResponseParseError({ status, method, url: redactUrl(url), bodySnippet: text.slice(0, 200), cause: err });
  }
}
