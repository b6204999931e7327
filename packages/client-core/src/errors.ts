/**
 * The error classes both clients throw. Both clients import them from this one package, so
 * `instanceof` is plain JavaScript and holds whichever client threw.
 */
import type { ValidationIssue } from '@x/common';
import { redactHeaders, redactUrl, type HeaderSource } from './redact.js';

/** Stable machine-readable error codes. */
export type ErrorCode =
  | 'INVALID_ARGUMENT'
  | 'HTTP_ERROR'
  | 'NETWORK_ERROR'
  | 'TIMEOUT'
  | 'RESPONSE_PARSE_ERROR'
  | 'RESPONSE_VALIDATION_ERROR'
  | 'RESPONSE_SHAPE_ERROR'
  | 'RESPONSE_TOO_LARGE'
  | 'NODES_FAILED'
  | 'HISTORY_PRUNED'
  | 'CHAIN_ID_MISMATCH'
  | 'TRANSACTION_WAIT_TIMEOUT';

/**
 * A class's name from its code (`CHAIN_ID_MISMATCH` → `ChainIdMismatchError`), as every code spells it: a
 * name taken from the class at run time (`new.target.name`) is whatever a bundler renamed the class to
 * (`HttpError2` with both clients in one bundle, `Ce` minified), and a table of names would ship whole.
 */
const nameOf = (code: string): string => code.replace(/(_ERROR)?$/, '_ERROR').toLowerCase().replace(/(^|_)(.)/g, (_, _u: string, c: string) => c.toUpperCase());

// One problem a response validator found: declared once, in @x/common, which @x/validators shares.
export type { ValidationIssue };

/**
 * Base class of every error the clients throw.
 *
 * @example
 * ```ts
 * try { await node.v2.getAccount('0x1'); } catch (err) {
 *   if (err instanceof ClientError) console.error(err.code, err.message);
 * }
 * ```
 */
export class ClientError extends Error {
  /** Machine-readable error code. */
  declare readonly code: ErrorCode;

  /**
   * `fields` become the error's own (a `cause` among them stays Error's own, not enumerable); a request's
   * `method` and `url` among them start the message.
   */
  constructor(code: ErrorCode, message: string, fields?: object) {
    const request = fields as { method?: string; url?: string } | undefined;
    super(request?.url ? `${request.method} ${request.url}: ${message}` : message, fields);
    Object.assign(this, fields);
    this.code = code;
    // Own and not enumerable (defineProperty's default), as an Error's own fields are.
    Object.defineProperty(this, 'name', { value: nameOf(code), configurable: true, writable: true });
  }
}

/**
 * An argument failed its check; thrown before any request is sent.
 *
 * @example
 * ```ts
 * await node.v2.listTransactions('0x1', { count: 101 }); // InvalidArgumentError, parameter 'count'
 * ```
 */
export class InvalidArgumentError extends ClientError {
  /** The code of this class: `err.code` narrows a union of the client's errors to it. */
  declare readonly code: 'INVALID_ARGUMENT';
  /** Name of the offending parameter, as the API names it (`address`, `count`, `start`, ...). */
  declare readonly parameter: string;
  constructor(parameter: string, problem: string) {
    super('INVALID_ARGUMENT', `Invalid argument '${parameter}': ${problem}`);
    this.parameter = parameter;
  }
}

/**
 * A URL in a message, matched only from the start of a run of scheme characters (the lookbehind): tried
 * from every letter of a long run, the scheme part rescanned the rest of the run each time.
 */
const URL_IN_TEXT = /(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;

/**
 * A server's message as an HttpError's message shows it, after `: `: on one line, URLs in it redacted, at
 * most 200 characters; nothing for anything but text. Only its first 800 characters are read, so every
 * expression runs on those whatever the server sent (a 100,000-letter message once blocked the process
 * for seconds in the URL expression).
 */
function shown(message: unknown): string {
  const line = typeof message === 'string' ? message.slice(0, 800).replace(/\s+/g, ' ').trim().replace(URL_IN_TEXT, redactUrl) : '';
  return line && `: ${line.length > 200 ? `${line.slice(0, 199)}…` : line}`;
}

/**
 * The server answered with a non-2xx status. When the body is `{ "message": string }` (what nodes
 * send), the message ends with it, short and redacted.
 *
 * @example
 * ```ts
 * catch (err) { if (err instanceof HttpError && err.status === 404) return undefined; }
 * ```
 */
export class HttpError extends ClientError {
  declare readonly code: 'HTTP_ERROR' | 'HISTORY_PRUNED';
  declare readonly status: number;
  /** The error body: parsed JSON when it is JSON, else the text. */
  declare readonly body: unknown;
  declare readonly method: string;
  /** The request URL with credentials and secret-looking query values redacted. */
  declare readonly url: string;
  /**
   * The response's headers, names lowercased; cookies and headers named like a secret (`authorization`,
   * `x-api-key`, `*token*`, ...) show `[REDACTED]`.
   */
  declare readonly headers: Readonly<Record<string, string>>;
  /**
   * The wait the server asked for, in ms from the answer: its `Retry-After` (a delay or a date), else on
   * a 429 or 503 of a node what its message names (`try again in 1.5s`); `undefined` without either.
   * Retries and the rest of a node honour it.
   */
  declare readonly retryAfterMs: number | undefined;
  constructor(init: {
    status: number;
    statusText?: string;
    body: unknown;
    method: string;
    url: string;
    headers?: HeaderSource;
    retryAfterMs?: number | undefined;
    /**
     * What the message ends with: the error body's message as the client reads it (the node client
     * unwraps Rust's `Some("...")`), or what the client made of the answer (a redirect it did not
     * follow); by default the body's `message` field. Shown on one line, redacted and cut short.
     */
    message?: unknown;
  }, code: 'HTTP_ERROR' | 'HISTORY_PRUNED' = 'HTTP_ERROR') {
    super(
      code,
      `HTTP ${init.status}${shown('message' in init ? init.message : (init.body as { message?: unknown } | null | undefined)?.message)}`,
      { status: init.status, body: init.body, method: init.method, url: init.url, headers: redactHeaders(init.headers), retryAfterMs: init.retryAfterMs },
    );
  }
}

/**
 * The request never produced a response (connection refused, reset, DNS failure, ...).
 *
 * @example
 * ```ts
 * catch (err) { if (err instanceof NetworkError) scheduleRetryLater(); }
 * ```
 */
export class NetworkError extends ClientError {
  declare readonly code: 'NETWORK_ERROR';
  declare readonly method: string;
  declare readonly url: string;
  constructor(init: { method: string; url: string; cause: unknown }) {
    // Its fields are its init's (`cause` stays Error's own, not enumerable).
    super('NETWORK_ERROR', describeCause(init.cause), init);
  }
}

/**
 * An attempt took longer than `timeoutMs`.
 *
 * @example
 * ```ts
 * createNodeClient({ timeoutMs: 5_000 });
 * ```
 */
export class TimeoutError extends ClientError {
  declare readonly code: 'TIMEOUT';
  declare readonly timeoutMs: number;
  declare readonly method: string;
  declare readonly url: string;
  constructor(init: { method: string; url: string; timeoutMs: number }) {
    super('TIMEOUT', `timed out after ${init.timeoutMs} ms`, init);
  }
}

/**
 * A success response whose body is not the JSON it should be (not JSON, truncated, empty).
 *
 * @example
 * ```ts
 * catch (err) { if (err instanceof ResponseParseError) console.error(err.bodySnippet); }
 * ```
 */
export class ResponseParseError extends ClientError {
  declare readonly code: 'RESPONSE_PARSE_ERROR';
  declare readonly status: number;
  declare readonly method: string;
  declare readonly url: string;
  /** The first 200 characters of the body, when it could be read. */
  declare readonly bodySnippet: string | undefined;
  constructor(init: { status: number; method: string; url: string; bodySnippet?: string; cause?: unknown }) {
    // Why: the parser's words, or a body that broke off with the bytes that arrived (`cut short after 111 bytes`).
    super('RESPONSE_PARSE_ERROR', `not JSON${init.cause ? `: ${describeCause(init.cause)}` : ''}`, { bodySnippet: undefined, ...init });
  }
}

/**
 * The injected validator rejected a response body.
 *
 * @example
 * ```ts
 * catch (err) { if (err instanceof ResponseValidationError) console.table(err.issues); }
 * ```
 */
export class ResponseValidationError extends ClientError {
  declare readonly code: 'RESPONSE_VALIDATION_ERROR';
  declare readonly operationId: string;
  declare readonly issues: readonly ValidationIssue[];
  declare readonly body: unknown;
  constructor(init: { operationId: string; issues: readonly ValidationIssue[]; body: unknown }) {
    const [first, ...more] = init.issues;
    super('RESPONSE_VALIDATION_ERROR', `${init.operationId} answer at '${first?.path || '/'}': ${first?.message ?? 'invalid'}${more[0] ? ` (+${more.length} more)` : ''}`, init);
  }
}

/**
 * A success body lacks what a client must read from it to go on (an iterator's list, an item, the next
 * cursor), with no validator injected to say more. `path` is the JSON pointer of what was wrong.
 *
 * @example
 * ```ts
 * for await (const tx of node.v2.transactions('0x1')) {} // a page of `{ "record": null }`:
 * // ResponseShapeError: Response of listTransactionsV2 at '/record': expected an array
 * ```
 */
export class ResponseShapeError extends ClientError {
  declare readonly code: 'RESPONSE_SHAPE_ERROR';
  declare readonly operationId: string;
  /** JSON pointer into the body of what was wrong (`''` for the whole body). */
  declare readonly path: string;
  constructor(init: { operationId: string; path: string; expected: string }) {
    super('RESPONSE_SHAPE_ERROR', `Response of ${init.operationId} at '${init.path || '/'}': expected ${init.expected}`);
    this.operationId = init.operationId;
    this.path = init.path;
  }
}

/**
 * A success body grew past the client's `maxResponseBytes` (counted as it streamed in, after any
 * `Content-Encoding` was undone): the read stopped there and the connection was released. With several
 * nodes the call moves on to the next; a real answer that large needs a larger `maxResponseBytes`.
 *
 * @example
 * ```ts
 * catch (err) { if (err instanceof ResponseTooLargeError) console.error(err.url, err.limitBytes); }
 * ```
 */
export class ResponseTooLargeError extends ClientError {
  declare readonly code: 'RESPONSE_TOO_LARGE';
  declare readonly status: number;
  declare readonly method: string;
  /** The request URL (the node's base URL first), redacted. */
  declare readonly url: string;
  /** The limit the body went past, in bytes. */
  declare readonly limitBytes: number;
  constructor(init: { status: number; method: string; url: string; limitBytes: number }) {
    super('RESPONSE_TOO_LARGE', `over ${init.limitBytes} bytes`, init);
  }
}

/** One node's part in a call that every node failed: its (redacted) base URL and its error. */
/**
 * A 410 of a node that has pruned the history asked for: `oldestBlock` is the lowest block height it still
 * keeps (its `x-supra-oldest-block` header), when it said. With several nodes the call moves on to the
 * next (an archive node keeps the whole history) without resting this one; the caller gets this error
 * only when every node has pruned the range. A walk also ends with it (`status` 200) where its pages
 * came whole but from nodes whose kept history starts above the walk's range, and no node keeps the rest.
 *
 * @example
 * ```ts
 * try { await node.v3.listTransactions('0x1', { start: 0 }); } catch (err) {
 *   if (err instanceof HistoryPrunedError) console.log(`history starts at block ${err.oldestBlock}`);
 * }
 * ```
 */
export class HistoryPrunedError extends HttpError {
  declare readonly code: 'HISTORY_PRUNED';
  /** The lowest block height the node keeps, from `x-supra-oldest-block`; `undefined` when it did not say. */
  declare readonly oldestBlock: bigint | undefined;
  constructor(init: ConstructorParameters<typeof HttpError>[0] & { oldestBlock: bigint | undefined }) {
    super(init, 'HISTORY_PRUNED');
    this.oldestBlock = init.oldestBlock;
    if (init.oldestBlock !== undefined) this.message += ` (oldest block ${init.oldestBlock})`;
  }
}

/**
 * An answer from a node of another chain than the client's `chainId` (its `x-supra-chain-id` header),
 * refused before its body is read. With several nodes the call moves on to the next, and the node rests.
 *
 * @example
 * ```ts
 * try { await node.v3.getAccount('0x1'); } catch (err) {
 *   if (err instanceof ChainIdMismatchError) console.log(err.expected, err.received); // 8 6
 * }
 * ```
 */
export class ChainIdMismatchError extends ClientError {
  declare readonly code: 'CHAIN_ID_MISMATCH';
  declare readonly expected: number;
  /** The chain id the node sent, as it sent it (text that is not a number stays text). */
  declare readonly received: number | string;
  declare readonly method: string;
  declare readonly url: string;
  constructor(init: { expected: number; received: number | string; method: string; url: string }) {
    super('CHAIN_ID_MISMATCH', `chain ${JSON.stringify(init.received).slice(0, 40)}, not ${init.expected}`, init);
  }
}

/**
 * One node's part in a `NodesFailedError`: its redacted URL and the client error it failed with (a node
 * fails a call only with a `NetworkError`, `TimeoutError`, `HttpError` 408, 429 or 5xx, a body it could
 * not read or the validator refused, a 410 of pruned history, or an answer of another chain or request).
 */
export type NodeAttempt = { readonly url: string; readonly error: AnyClientError };

/**
 * Every node of a client with several `baseUrl`s failed the call (a network error, a timeout, 408, 429
 * or 5xx each), through every retry. `attempts` holds each node's last error, in the order tried; its
 * `error` is an `AnyClientError`, so its `code` narrows it (a node a walk left out that never failed is
 * not in it).
 *
 * @example
 * ```ts
 * try { await node.v2.getAccount('0x1'); } catch (err) {
 *   if (err instanceof NodesFailedError) for (const { url, error } of err.attempts) console.log(url, error.code, error.code === 'HTTP_ERROR' ? error.status : error.message);
 * }
 * ```
 */
export class NodesFailedError extends ClientError {
  declare readonly code: 'NODES_FAILED';
  declare readonly attempts: readonly NodeAttempt[];
  constructor(attempts: readonly { readonly url: string; readonly error: unknown }[]) {
    // The router hands over each node's last error, a client error where the node failed (what moves a
    // call on is one); a node it did not ask and that never failed has none, and made no attempt.
    const made = attempts.filter((a): a is NodeAttempt => a.error instanceof ClientError);
    const each = made.map(({ url, error }) => `${url} (${error.name}: ${error.message})`);
    super('NODES_FAILED', `Every node failed: ${each.join('; ')}`);
    this.attempts = made;
  }
}

/**
 * True for an `HttpError` with status 404 (an unknown account, pair or resource).
 *
 * @example
 * ```ts
 * const candles = await prices.history(q).catch((err) => (isNotFound(err) ? [] : Promise.reject(err)));
 * ```
 */
export function isNotFound(err: unknown): err is HttpError {
  return err instanceof HttpError && err.status === 404;
}

/**
 * True for an `HttpError` with status 401 or 403: the service refused the credentials (a wrong, missing
 * or revoked API key of the price service). Retrying does not help; the message never holds the key.
 *
 * @example
 * ```ts
 * const latest = await prices.latest({ pair: 'btc_usdt' }).catch((err) => {
 *   throw isUnauthorized(err) ? new Error('check SUPRA_PRICE_API_KEY', { cause: err }) : err;
 * });
 * ```
 */
export function isUnauthorized(err: unknown): err is HttpError {
  return err instanceof HttpError && (err.status === 401 || err.status === 403);
}

/**
 * An error and its causes on one line: each message once (`fetch failed: bad port`, `cut short after 512
 * bytes: terminated: other side closed`), then the innermost `code` (`ECONNREFUSED`, `UND_ERR_SOCKET`).
 */
function describeCause(e: unknown): string {
  let text = '';
  let code: unknown;
  for (let depth = 0; e != null && depth++ < 4; e = (e as Error).cause) {
    // An empty message is in any text, so it adds nothing.
    const message = e instanceof Error ? e.message : String(e);
    if (!text.includes(message)) text += (text && ': ') + message;
    code = (e as { code?: unknown }).code ?? code;
  }
  return code == null || text.includes(code as string) ? text : `${text} (${code as string})`;
}

/**
 * A transaction did not become final (`Success`, `Fail` or `Invalid`) before `waitForTransaction`'s
 * deadline: which hash, how long it waited, and what the node asked last answered. The message says it:
 * the transaction's last status (`last status Pending`), that the node did not know the hash (`unknown to
 * the node asked last (HTTP 404)`), that the last poll failed (`the last poll failed: HttpError, HTTP
 * 503`), or that no poll had answered with a status (the first one still in flight at the deadline).
 *
 * @example
 * ```ts
 * try { await waitForTransaction(node.transport, hash, { timeoutMs: 30_000 }); } catch (err) {
 *   if (err instanceof TransactionWaitTimeoutError) console.log(err.hash, err.waitedMs, err.lastStatus, err.lastError?.code);
 * }
 * ```
 */
export class TransactionWaitTimeoutError extends ClientError {
  declare readonly code: 'TRANSACTION_WAIT_TIMEOUT';
  declare readonly hash: string;
  declare readonly waitedMs: number;
  /** The last status any poll saw (`Pending`, ...); `undefined` while no node had answered the transaction. */
  declare readonly lastStatus: string | undefined;
  /**
   * Why the last poll got no transaction: the 404 of a node that did not know the hash, or the error it
   * failed with (an `HttpError` 503, a `NetworkError`, a `NodesFailedError`, ...); `undefined` when the
   * last poll answered a status, or none had been answered.
   */
  declare readonly lastError: ClientError | undefined;
  constructor(init: { hash: string; waitedMs: number; lastStatus: string | undefined; lastError?: ClientError | undefined }) {
    super('TRANSACTION_WAIT_TIMEOUT', `Transaction ${init.hash} was not final after ${init.waitedMs} ms (${lastAnswer(init.lastStatus, init.lastError)})`);
    this.hash = init.hash;
    this.waitedMs = init.waitedMs;
    this.lastStatus = init.lastStatus;
    this.lastError = init.lastError;
  }
}

/** What a wait's last poll got, as its timeout's message says it. */
function lastAnswer(status: string | undefined, error: ClientError | undefined): string {
  const seen = status === undefined ? '' : `; last status seen ${status}`;
  if (error === undefined) return status === undefined ? 'no poll had answered with a status' : `last status ${status}`;
  const code = (error as { status?: unknown }).status;
  const said = `${error.name}${typeof code === 'number' ? `, HTTP ${code}` : ''}`;
  return isNotFound(error) ? `unknown to the node asked last (HTTP 404)${seen}` : `the last poll failed: ${said}${seen}`;
}

/**
 * Every error the clients throw, as a union tagged by `code`: `if (err.code === 'HTTP_ERROR')` narrows it
 * to `HttpError` (a query's `error` of the `/query` subpaths is this type).
 *
 * @example
 * ```ts
 * function explain(err: AnyClientError): string {
 *   return err.code === 'HTTP_ERROR' ? `HTTP ${err.status}` : err.code === 'TIMEOUT' ? `after ${err.timeoutMs} ms` : err.message;
 * }
 * ```
 */
export type AnyClientError =
  | InvalidArgumentError
  // An HttpError that is no HistoryPrunedError: so that `err.code === 'HISTORY_PRUNED'` narrows to the
  // subclass alone (HttpError's own `code` type must admit its subclass's).
  | (HttpError & { readonly code: 'HTTP_ERROR' })
  | HistoryPrunedError
  | NetworkError
  | TimeoutError
  | ResponseParseError
  | ResponseValidationError
  | ResponseShapeError
  | ResponseTooLargeError
  | NodesFailedError
  | ChainIdMismatchError
  | TransactionWaitTimeoutError;
