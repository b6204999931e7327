/**
 * The options and shapes the transport, the router and the clients share, in a module of their own so
 * that none of those imports another back.
 */
import type { PagingRule, ResponseValidator } from '@x/common';
import type { BodyField } from './body.js';
import type { ParamSpec } from './params.js';
import type { RateLimitOptions } from './rate-limit.js';
import type { RetryOptions } from './retry.js';

// A response validator as `@x/validators` creates it: declared once, in @x/common, which both share, so
// the clients take one without depending on the validators.
export type { ResponseValidator };

/** One attempt as `onAttempt` reports it: no query, no header, no key, only the node's redacted base URL. */
export type AttemptInfo = {
  /** The node's base URL, redacted. */
  readonly node: string;
  readonly operationId: string;
  /** `first` of the call, a `retry` (a new pass over the nodes), a `fallback` after another node failed, or a `hedge`. */
  readonly kind: 'first' | 'retry' | 'fallback' | 'hedge';
  /**
   * The answer's status, when there was one: a failed attempt has one too (an `HttpError`'s 503, or the
   * 200 of a body that was not JSON or too large), so read `error` first to tell a failure.
   */
  readonly status?: number;
  /** The error's class name (`TimeoutError`, `HttpError`, `ResponseParseError`, `AbortError`, ...), when the attempt failed. */
  readonly error?: string;
  readonly durationMs: number;
};

/** Options both clients accept. */
export type TransportOptions = {
  /**
   * Base URL of the service, an `http:` or `https:` URL; or several, in order of preference: a network
   * error, a timeout, 408, 429 or 5xx, a 200 whose body is not JSON, too large or refused by the
   * validator, or a redirect to another origin moves a call to the next, and a failing node rests for a
   * while (not for the validator's refusal).
   */
  baseUrl?: string | readonly string[] | undefined;
  /** A limit of the client's own on the requests it sends to each node, shared by all its calls and walks. */
  rateLimit?: RateLimitOptions | undefined;
  /**
   * With several nodes: when the first has not answered after this many ms, the same GET goes to the
   * next node awake too; the first answer wins and the other request is aborted (default: off).
   */
  hedgeAfterMs?: number | undefined;
  /** Called after each attempt, for logs and metrics; what it throws is ignored. */
  onAttempt?: ((attempt: AttemptInfo) => void) | undefined;
  /**
   * The fetch implementation, called with one `Request` per attempt (default: the global `fetch`). Send
   * that Request as it is (`fetch(request)`, or a copy that keeps its `redirect: 'manual'`): the client
   * follows redirects itself, within the origin only. A fetch that follows them instead
   * (`fetch(request.url, { method, headers })`, `new Request(request, { redirect: 'follow' })`) sends the
   * headers wherever a redirect leads, which the client cannot undo; an answer that then came from another
   * origin (its `redirected` or `url` says so) is refused with a `NetworkError`, not retried, and with
   * several nodes the call moves on. One it followed within the origin is taken, as the client would
   * follow it. A fetch that sends elsewhere on purpose (a proxy) answers a Response of its own making,
   * which has no `url`: `new Response(response.body, response)`.
   */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  /**
   * Headers sent with every request, and never to another origin: a redirect to another origin is not
   * followed (the call fails with an `HttpError` of the 3xx that says where it led), one within the
   * origin is. A name that is not an HTTP token, or a value with CR, LF, NUL or a character outside
   * Latin-1, is refused here, not on every call.
   */
  headers?: Record<string, string> | undefined;
  /**
   * Time limit of one attempt in milliseconds, the body included (default 30 000; at most 2^31-1, the
   * timer limit). The attempt then rejects with `TimeoutError` at once and its request is aborted.
   */
  timeoutMs?: number | undefined;
  /** Retry policy, or `false` for a single attempt. */
  retry?: RetryOptions | false | undefined;
  /** Validates every success body; a failure throws `ResponseValidationError`. */
  validator?: ResponseValidator | undefined;
  /**
   * The largest body read, in bytes after any `Content-Encoding` is undone, counted as it streams in
   * (default 16 MiB, `DEFAULT_MAX_RESPONSE_BYTES` of `@x/client-core`: seven times the largest real answer known,
   * 2.3 MB). A success body past it ends the attempt with `ResponseTooLargeError` and releases the
   * connection; an error body is kept up to 64 KiB (its status is the answer).
   */
  maxResponseBytes?: number | undefined;
};

/**
 * TanStack Query's `retry` and `retryDelay`, typed with a query's error so that every framework's hooks
 * infer `error` without annotation. The clients' `/query` option objects set `retry: false`: the client
 * has retried transient failures already and never retries an answer. Types only: nothing of TanStack is imported.
 */
export type QueryErrorOptions<TError> = {
  retry?: boolean | number | ((failureCount: number, error: TError) => boolean);
  retryDelay?: number | ((failureCount: number, error: TError) => number);
};

/** Per-call options of every operation. */
export type CallOptions = {
  /** Aborts the call; the call then rejects with the signal's reason at once, and its request is aborted. */
  signal?: AbortSignal | undefined;
  /**
   * `false`: this call is sent once (no retry, no hedge, no other node after a failure). `true`: an
   * operation sent once by default (`OperationSpec.retry`: the faucet, which a retry may run twice) gets
   * the client's retries all the same. Default: the operation's own.
   */
  retry?: boolean | undefined;
};

/** What the transport needs to know of an operation: the generated operation table's entry. */
export type OperationSpec = {
  /** Upper case, as fetch sends it and errors show it. */
  readonly method: string;
  readonly path: string;
  readonly params: readonly ParamSpec[];
  /**
   * The fields of its JSON request body (a POST read). The call's `args.body` is then the body's JSON
   * text, made and checked by `requestBody`, and sent as `application/json`.
   */
  readonly body?: readonly BodyField[];
  /**
   * A listing's paging rule, for the walks and query options that page it. What a call answers is the
   * body, unless the client's `answer` reads it otherwise (the node client: a listing whose next cursor is
   * a response header answers `{ items, cursor }`, the items at the rule's pointer).
   */
  readonly paging?: PagingRule;
  /**
   * What the answer repeats of the request (the spec's `x-echo`): the path parameter `parameter` at the
   * JSON pointer `pointer` of the parsed body, compared as a u64 or as hex (case, `0x` and leading zeros
   * aside). An answer that holds anything else is refused with a `ResponseShapeError` naming the pointer,
   * and with several nodes the call moves on.
   */
  readonly echo?: { readonly parameter: string; readonly pointer: readonly string[]; readonly form: 'u64' | 'hex' };
  /**
   * The operation's own reading of a parsed, validated success answer with its headers and checked path
   * parameters, inside the attempt (what it throws ends the attempt; with several nodes a node failure
   * moves the call on): generated into the actions that need one (a header cursor's page, an answer
   * checked against the request). By default the answer is the body.
   */
  readonly answer?: (body: unknown, headers: Headers, path: Readonly<Record<string, unknown>> | undefined) => unknown;
  /**
   * `false` for an operation that changes something (the spec's `x-retry: false`: the faucet): sent once,
   * with no retry, hedge or other node, unless the call passes `retry: true`.
   */
  readonly retry?: false;
};


/**
 * The node a walk's pages come from: the walk passes one object to every page's call
 * (`transport.call(..., affinity)`), the router fills in the node that answered, and later pages go to
 * that node first while it answers. Empty (`{}`) at the start of a walk.
 *
 * @example
 * ```ts
 * const affinity: NodeAffinity = {};
 * for (const start of starts) await transport.call('listTransactionsV2', op, { address, start }, { signal }, affinity);
 * ```
 */
export type NodeAffinity = {
  node?: string;
  /**
   * Nodes this walk no longer asks (a node whose kept history starts above what the walk needs): the
   * router leaves them out; with none left the call is not sent.
   */
  skip?: Set<string>;
};


