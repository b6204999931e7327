import {
  type ClientError,
  HttpError,
  InvalidArgumentError,
  NetworkError,
  ResponseParseError,
  ResponseValidationError,
  TimeoutError,
} from './errors.js';
import { parseBaseUrl } from './base-url.js';
import type { CallOptions, NodeAffinity, OperationSpec, TransportOptions } from './options.js';
import { checkInteger, paramValue, show } from './params.js';
import { OtherOrigin } from './redirects.js';
import { redactUrl } from './redact.js';
import { backoffDelay, milliseconds, parseRetryAfter, resolveRetry, withRetry, type RetryPolicy } from './retry.js';
import { requestUrl } from './url.js';
import { DEFAULT_TIMEOUT_MS } from './deadline.js';

/** `maxResponseBytes` unless configured: 16 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** The most `maxResponseBytes` may be: 512 MiB, near the longest string a JavaScript engine makes. */
export const MAX_RESPONSE_BYTES_LIMIT = 512 * 1024 * 1024;
/** How much of an error body is kept: enough for any message, and nothing a node can flood. */
const ERROR_BODY_BYTES = 64 * 1024;

/** Options of a transport to one node: the client options but those of several nodes, with one base URL. */
export type OneNodeOptions = Omit<TransportOptions, 'baseUrl' | 'rateLimit' | 'hedgeAfterMs' | 'onAttempt'> & {
  /** The node's base URL, an `http:` or `https:` URL. */
  baseUrl: string;
};

/**
 * What an error answer is made into: an `HttpError`'s fields, before the service reads its body.
 * @internal
 */
export type HttpErrorInit = ConstructorParameters<typeof HttpError>[0];

/**
 * What one service knows beyond HTTP, composed into its client's transport (the node client's `http()`,
 * the price client's): the transport itself knows no service and no router.
 */
export type Service = {
  /**
   * The paths the client appends to a base URL (`/rpc/v3`, `/history`, ...): a `baseUrl` that ends in
   * one is refused.
   */
  readonly apiPaths?: readonly string[];
  /**
   * Puts a call's arguments in the form the service takes, before they are checked (the node client: an
   * address in its canonical form); `args` is the action's own object.
   */
  readonly args?: (args: Record<string, unknown>) => void;
  /** Statuses retried unless the user's `retry.statuses` says otherwise. */
  readonly retryStatuses?: readonly number[];
  /**
   * The error of an answer that is not a success, where the service says more than an `HttpError` (the
   * node client: its message's `Some("...")`, its "try again in", a 410's oldest block). `init.message`
   * is set already when the transport knows better (a redirect it did not follow).
   */
  readonly failure?: (init: HttpErrorInit) => HttpError;
  /**
   * A check of every answer's headers before its body is read, error answers included (the node client:
   * its chain id); what it returns ends the attempt, and with several nodes moves the call on.
   */
  readonly check?: (headers: Headers, request: { readonly method: string; readonly url: string }) => ClientError | undefined;
};

/** One call checked and ready to send: what each attempt, on this node or another, sends. */
export type Prepared = {
  readonly operationId: string;
  readonly op: OperationSpec;
  readonly path: Record<string, unknown> | undefined;
  readonly query: Record<string, unknown> | undefined;
  /** Its path and query, joined and encoded once per call (each attempt, on any node, appends it to its base URL). */
  readonly target: string;
  /** The JSON text of its request body, when the operation has one. */
  readonly body: string | undefined;
  readonly signal: AbortSignal | undefined;
  /** Sent once: no retry, hedge or other node (the operation's `retry: false` or the call's own `retry`). */
  readonly once: boolean;
};

/**
 * A transport to one node: what an action calls (`call`), and what a transport over several nodes
 * (`fallback`) composes (`prepare`, one `attempt`, the `retryDelay` of its policy).
 *
 * @example
 * ```ts
 * const t = createTransport({ baseUrl: 'http://localhost:27000' });
 * const body = await t.call('getAccountV3', op.getAccountV3, { address: '0x1' });
 * ```
 */
export type Transport = {
  /** The node's base URL, normalised (no trailing slash). */
  readonly url: string;
  /** `[url]`: what every transport lists, one node or several. */
  readonly baseUrls: readonly string[];
  /** The retry policy of its calls. */
  readonly policy: RetryPolicy;
  /** Checks `args` against the operation's parameters and makes the request's parts; throws `InvalidArgumentError`. */
  prepare(operationId: string, op: OperationSpec, args: Record<string, unknown>, options?: CallOptions): Prepared;
  /** One attempt at this node: settles on the first of its answer, its timer and `signal`. */
  attempt(call: Prepared, signal: AbortSignal | undefined): Promise<unknown>;
  /** The delay before retrying after `error` (attempt `attempt` failed), or undefined when it is not retried. */
  retryDelay(error: unknown, attempt: number): number | undefined;
  /**
   * Checks `args` (rejecting with `InvalidArgumentError` before any request), then sends it, with the
   * policy's retries, and resolves to the parsed, checked body. An operation with a request body takes
   * its JSON text as `args.body` (see `requestBody`).
   */
  call(operationId: string, op: OperationSpec, args: Record<string, unknown>, options?: CallOptions, affinity?: NodeAffinity): Promise<unknown>;
};

/**
 * What every attempt of a one-node transport reads, made once from its options: what the fetch attempt
 * and another client's (the node client's undici transport) share.
 * @internal
 */
export type AttemptContext = {
  /** The base URL, normalised. */
  readonly url: string;
  readonly timeoutMs: number;
  /** The most bytes of a success body read. */
  readonly maxBytes: number;
  /** The most bytes of an error body kept (64 KiB, or `maxBytes` when smaller). */
  readonly errorBytes: number;
  /** The `headers` option, merged (lowercase names, in order), or none. */
  readonly headers: [string, string][] | undefined;
  readonly policy: RetryPolicy;
  readonly service: Service;
  readonly validator: TransportOptions['validator'];
  /** The URL a call is sent to: the base URL, the operation's path, its path and query parameters. */
  readonly target: (call: Prepared) => string;
  /** The `fetch` option: a custom fetch, called with one `Request` per request. */
  readonly fetch?: TransportOptions['fetch'];
};

/**
 * Makes the attempt of a one-node transport from its context (see {@link transportWith}).
 * @internal
 */
export type AttemptMaker = (context: AttemptContext) => Transport['attempt'];

/**
 * A one-node transport whose attempts `makeAttempt` makes: the options checked, arguments prepared,
 * retries and their delays as `createTransport`'s, only the sending differs (the node client's undici
 * transport sends with undici's `request`). An attempt settles on the first of its answer, its timer
 * (`context.timeoutMs`) and `signal`, and reads its answer with {@link readAnswer}.
 *
 * @example
 * ```ts
 * const t = transportWith({ baseUrl: 'http://localhost:27000' }, {}, (context) => (call, signal) => mySend(context, call, signal));
 * ```
 * @internal
 */
export function transportWith(options: OneNodeOptions, service: Service, makeAttempt: AttemptMaker): Transport {
  // A router's options, given to one node: they belong to `fallback`.
  for (const k of ['rateLimit', 'hedgeAfterMs', 'onAttempt'] as const) if ((options as TransportOptions)[k] !== undefined) throw new InvalidArgumentError(k, 'is an option of fallback');
  // Infinity or more than 2^31-1 ms would make setTimeout fire at once: every call would time out.
  const timeoutMs = milliseconds('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 1);
  const maxBytes = checkInteger('maxResponseBytes', options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, 1, MAX_RESPONSE_BYTES_LIMIT);
  const headers = checkHeaders(options.headers);
  const policy = resolveRetry(options.retry, service.retryStatuses);
  const url = parseBaseUrl(options.baseUrl, service.apiPaths).href.replace(/\/+$/, '');
  // The fetch transport checks the same options in its own lines: shared, they cost its bundles 35 B gzip.
  const attempt = makeAttempt({
    url, timeoutMs, maxBytes, errorBytes: Math.min(maxBytes, ERROR_BODY_BYTES), headers, policy, service, validator: options.validator, fetch: options.fetch,
    target: (call) => url + call.target,
  });
  return oneNode(url, policy, prepareWith(service), attempt);
}

/**
 * A one-node transport from its parts: `call` prepares once (a refusal rejects), then attempts with the
 * policy's retries (one attempt for a call sent once).
 * @internal
 */
export function oneNode(url: string, policy: RetryPolicy, prepare: Transport['prepare'], attempt: Transport['attempt']): Transport {
  const retryDelay = retryDelayOf(policy);
  const once: RetryPolicy = { ...policy, attempts: 1 };
  return {
    url,
    baseUrls: Object.freeze([url]),
    policy,
    prepare,
    attempt,
    retryDelay,
    async call(operationId, op, args, callOptions) {
      const call = prepare(operationId, op, args, callOptions);
      return withRetry(() => attempt(call, call.signal), call.once ? once : policy, retryDelay, call.signal);
    },
  };
}

/**
 * The `prepare` of a one-node transport: checks a call's arguments (the service's own forms first) and
 * makes its request's parts, once per call.
 * @internal
 */
export function prepareWith({ args: normalize }: Service): Transport['prepare'] {
  return (operationId, op, args, callOptions) => {
    // A path that starts with / stays under the base URL (normalised: no query, fragment or trailing
    // slash); an ad-hoc one that does not (`@evil.example/x`) would change the host.
    if (typeof op.path !== 'string' || op.path[0] !== '/') throw new InvalidArgumentError('path', `must start with /, got ${show(op.path)}`);
    normalize?.(args);
    const [path, query] = checkArgs(op, args);
    // A body comes as its JSON text, made and checked by `requestBody` (the node client's POST reads do).
    if (op.body !== undefined && typeof args.body !== 'string') throw new InvalidArgumentError('body', 'must be JSON text (requestBody)');
    const signal = callOptions?.signal;
    signal?.throwIfAborted();
    return { operationId, op, path, query, target: requestUrl('', op.path, path, query), body: op.body && (args.body as string), signal, once: (callOptions?.retry ?? op.retry) === false };
  };
}

/** Each parameter of `op` checked, in wire form: the path's and the query's, each undefined when empty. */
function checkArgs(op: OperationSpec, args: Record<string, unknown>): [Record<string, unknown>?, Record<string, unknown>?] {
  const parts: [Record<string, unknown>?, Record<string, unknown>?] = [];
  for (const spec of op.params) {
    // Its generated check (`ParamSpec.check`): nothing is interpreted per call.
    const value = paramValue(spec, args[spec.name]);
    if (value !== undefined && (spec.in === 'path' || spec.in === 'query')) (parts[+(spec.in === 'query')] ??= {})[spec.name] = value;
  }
  return parts;
}

/**
 * The answer of one attempt, read to its end (bounded): what {@link readAnswer} makes a result or an error of.
 * @internal
 */
export type Answer = {
  readonly status: number;
  readonly statusText: string;
  /** The answer's headers, made on demand (a client whose headers are not a `Headers` pays only when read). */
  readonly headers: () => Headers;
  readonly text: string;
  /** The URL sent, unredacted. */
  readonly sent: string;
  /** Why a redirect was not followed, when one was not: the error's message. */
  readonly refused: string | undefined;
};

/**
 * What an attempt's answer is: the parsed, validated body of a success (read by the operation's own
 * `answer` when it has one), or, thrown, the error of an error answer (the service's `failure`), an empty
 * or unparsable body (`ResponseParseError`), a body the validator refuses.
 *
 * @example
 * ```ts
 * const value = readAnswer(context, call, { status: 200, statusText: 'OK', headers: () => new Headers(), text: '{}', sent: url, refused: undefined });
 * ```
 * @internal
 */
export function readAnswer(context: AttemptContext, call: Prepared, answer: Answer): unknown {
  const { status, text, sent } = answer;
  const { method } = call.op;
  if (status < 200 || status > 299) {
    const headers = answer.headers();
    const init: HttpErrorInit = {
      status, statusText: answer.statusText, body: errorBody(text), method, url: redactUrl(sent), headers,
      retryAfterMs: parseRetryAfter(headers.get('retry-after'), context.policy.now()),
      // Why a redirect was not followed says more than its body.
      ...(answer.refused !== undefined && { message: answer.refused }),
    };
    const { failure } = context.service;
    throw failure ? failure(init) : new HttpError(init);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ResponseParseError({ status, method, url: redactUrl(sent), bodySnippet: text.slice(0, 200), cause: text ? err : new Error('empty body') });
  }
  const result = context.validator?.(call.operationId, status, parsed);
  if (result && !result.ok) throw new ResponseValidationError({ operationId: call.operationId, issues: result.issues, body: parsed });
  // The operation's own reading of its answer (generated into its action: a header cursor, an answer
  // checked against the request), inside the attempt so that with several nodes a refusal moves the call on.
  return call.op.answer ? call.op.answer(parsed, answer.headers(), call.path) : parsed;
}


/**
 * Refuses headers fetch would refuse on every call (a CR or LF in a key read from a file, say), with an
 * `InvalidArgumentError` naming `parameter` and the header but never echoing a value, which may be a
 * secret; returns them as the transport sends them: a null or undefined value left out, a list one value
 * per item (fetch joins them with `, `), numbers and booleans as text, the names lowercased and in order,
 * as fetch's `Headers` lists them; none when there are none. `Headers` itself holds the rules (a token
 * for a name), and a value holds tab, visible Latin-1 or space, nothing else (no control character).
 *
 * @example
 * ```ts
 * checkHeaders({ 'x-api-key': 'abc\r\n' }, 'apiKey'); // throws: Invalid argument 'apiKey': bad header "x-api-key"
 * checkHeaders({ 'X-A': ['1', 2] }); // [['x-a', '1, 2']]
 * ```
 */
export function checkHeaders(headers: unknown, parameter = 'headers'): [string, string][] | undefined {
  if (headers === undefined) return undefined;
  const merged = new Headers();
  let name: string | undefined;
  try {
    // Thrown only to be caught below: one place makes the error.
    if (typeof headers !== 'object' || !headers || Array.isArray(headers)) throw 0;
    // A Headers object (from JavaScript: the type does not allow it) by its entries.
    for (const [key, value] of headers instanceof Headers ? headers : Object.entries(headers)) {
      name = key;
      if (value == null) continue;
      if (!Array.isArray(value)) merged.delete(key);
      for (const v of [value].flat()) {
        // What Headers lets through and fetch refuses on every call (a control character; a line break
        // at an end, which Headers would cut off): tab, and visible Latin-1 or space, nothing else.
        if (!/^(string|number|boolean)$/.test(typeof v) || /[^\t\x20-\x7e\x80-\xff]/.test(v as string)) throw 0;
        merged.append(key, v as string);
      }
    }
  } catch {
    // The name, never the value; `explain(err)` gives the rules.
    throw new InvalidArgumentError(parameter, name === undefined ? 'must be an object' : `bad header ${JSON.stringify(name.slice(0, 64))}`);
  }
  const list = [...merged];
  return list[0] ? list : undefined;
}

/**
 * The delay before retrying after `error` (attempt `attempt` failed), or undefined when it is not
 * retried: network errors, timeouts and the policy's statuses are, honouring `Retry-After`.
 * @internal
 */
export const retryDelayOf = (policy: RetryPolicy) => (error: unknown, attempt: number): number | undefined => {
  const answered = error instanceof HttpError;
  const after = answered ? error.retryAfterMs : undefined;
  // Asking again sooner than the server said would only add load, so a longer wait than this client will
  // make ends the retries with the error. An answer of another origin would come again: not retried.
  return (answered ? policy.statuses.includes(error.status) && !(after! > policy.maxDelayMs) : (error instanceof NetworkError && !(error.cause instanceof OtherOrigin)) || error instanceof TimeoutError)
    ? backoffDelay(policy, attempt, after)
    : undefined;
};

/** An error body as `HttpError.body` holds it: parsed when it is JSON, else the text; none when empty. */
function errorBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text; // not JSON, or cut short
  }
}
