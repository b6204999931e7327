/**
 * The one-node transport on `fetch`, written as one module for the bundle of an app that calls one
 * action: the options checked once, one `prepare`, one attempt, one retry loop, no hooks a one-action
 * user never runs. What a service knows beyond HTTP comes in its `Service`, what an operation does is in
 * its table entry. (The undici transport of the node client keeps `transportWith`, which shares its
 * errors and checks.)
 */
import { ClientError, HttpError, InvalidArgumentError, NetworkError, ResponseParseError, ResponseTooLargeError, ResponseValidationError, TimeoutError } from '../errors.js';
import { parseBaseUrl } from '../base-url.js';
import { checkInteger, paramValue, show } from '../params.js';
import { OPAQUE, OtherOrigin, redirectHop } from '../redirects.js';
import { redactUrl } from '../redact.js';
import { milliseconds, parseRetryAfter, resolveRetry } from '../retry.js';
import { deadline, DEFAULT_TIMEOUT_MS } from '../deadline.js';
import { checkHeaders, DEFAULT_MAX_RESPONSE_BYTES, MAX_RESPONSE_BYTES_LIMIT, oneNode, type OneNodeOptions, type Service, type Transport } from '../transport.js';
import type { TransportOptions } from '../options.js';

/**
 * A transport to one node: checks arguments, sends, times out, retries (backoff, `Retry-After`), reads
 * (decoded bytes counted: `maxResponseBytes` for a success, 64 KiB kept of an error), parses and
 * validates; redirects within the origin only (`redirect: 'manual'`, at most 20 hops; one elsewhere is
 * refused, never sent); typed errors with redacted URLs. `fetch(url, init)` unless the options give a
 * custom `fetch`, which is called with one `Request` per request.
 *
 * Every call ends: a timeout or a caller's abort settles the attempt on the transport's own timer or
 * listener, then aborts its request and cancels its body. A Request the transport built is held by the
 * attempt until it ends (a signal followed through a collected Request is lost: nodejs/undici#4068).
 *
 * @example
 * ```ts
 * const transport = createTransport({ baseUrl: 'http://localhost:27000', timeoutMs: 5_000 });
 * const body = await transport.call('getAccountV2', operations.getAccountV2, { address: '0x1' });
 * ```
 */
export function createTransport(options: OneNodeOptions, service: Service = {}): Transport {
  // A router's options, given to one node: they belong to `fallback`.
  for (const k of ['rateLimit', 'hedgeAfterMs', 'onAttempt'] as const) if ((options as TransportOptions)[k] !== undefined) throw new InvalidArgumentError(k, 'is an option of fallback');
  // Infinity or more than 2^31-1 ms would make setTimeout fire at once: every call would time out.
  const timeoutMs = milliseconds('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 1);
  const maxBytes = checkInteger('maxResponseBytes', options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, 1, MAX_RESPONSE_BYTES_LIMIT);
  const headers = checkHeaders(options.headers);
  const policy = resolveRetry(options.retry, service.retryStatuses);
  const url = parseBaseUrl(options.baseUrl, service.apiPaths).href.replace(/\/+$/, '');
  const origin = new URL(url).origin;
  const { args: normalize, failure = (init) => new HttpError(init), check } = service;
  const { validator, fetch: custom } = options;

  const prepare: Transport['prepare'] = (operationId, op, args, callOptions) => {
    // A path that starts with / stays under the base URL; one that does not (`@evil.example/x`) would change the host.
    if (typeof op.path !== 'string' || op.path[0] !== '/') throw new InvalidArgumentError('path', `must start with /, got ${show(op.path)}`);
    normalize?.(args);
    let path: Record<string, unknown> | undefined;
    let query: Record<string, unknown> | undefined;
    let target = op.path;
    let q = '';
    for (const spec of op.params) {
      const { name } = spec;
      // Its generated check (`ParamSpec.check`): nothing is interpreted per call.
      const value = paramValue(spec, args[name]);
      if (value == null) continue;
      const text = encodeURIComponent(value as string);
      if (spec.in === 'path') target = target.replace(`{${((path ??= {})[name] = value, name)}}`, text);
      else if (spec.in === 'query') q += `${q ? '&' : '?'}${encodeURIComponent(((query ??= {})[name] = value, name))}=${text}`;
    }
    // A body comes as its JSON text, made and checked by `requestBody` (the node client's POST reads do).
    if (op.body && typeof args.body !== 'string') throw new InvalidArgumentError('body', 'must be JSON text');
    const signal = callOptions?.signal;
    signal?.throwIfAborted();
    return { operationId, op, path, query, target: target + q, body: op.body && (args.body as string), signal, once: (callOptions?.retry ?? op.retry) === false };
  };

  const attempt: Transport['attempt'] = (call, signal) =>
    new Promise((resolve, reject) => {
      const { method } = call.op;
      const controller = new AbortController();
      // The URL sent; redacted only when an error shows it.
      const sent = url + call.target;
      const where = (): string => redactUrl(sent);
      // 0 before sending, 1 sent (a failure is the network's), 2 answered (a failure is the body's).
      let stage = 0;
      let status = 0;
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
      let over = false;
      const end = (): boolean => !over && ((over = true), clear(), true);
      /** Ends the attempt from outside (timeout, caller's abort): settle now, then stop the request and its body. */
      const stop = (reason: unknown): void => {
        if (!end()) return;
        reject(reason);
        controller.abort(reason);
        reader?.cancel(reason).catch(noop);
      };
      const clear = deadline(timeoutMs, signal, stop, () => new TimeoutError({ method, url: where(), timeoutMs }));
      // A signal that aborted before the attempt began (a router's attempt waits a tick) fires no event.
      if (signal?.aborted) return stop(signal.reason);

      const run = async (): Promise<unknown> => {
        const init: RequestInit = { method, headers, signal: controller.signal, redirect: 'manual' };
        if (call.body !== undefined) {
          init.body = call.body;
          // The body's type is the operation's, whatever the `headers` option says (fetch would join both).
          init.headers = [...(headers ?? []).filter(([name]) => name !== 'content-type'), ['content-type', 'application/json']];
        }
        // The Request of a custom fetch, held by this closure until the attempt ends.
        let request: Request | undefined;
        let at = sent;
        let refused: string | undefined;
        let response: Response;
        // Redirects within the origin are sent again; one elsewhere is the answer, and says where it led.
        for (let hop = 0; ; hop++) {
          // A Request the runtime refuses (a forbidden method) was never sent: thrown as it is, not retried.
          if (custom) request = new Request(at, init);
          stage = 1;
          response = await (request ? custom!(request) : fetch(at, init));
          if (response.type === 'opaqueredirect') throw new OtherOrigin(OPAQUE);
          const next = redirectHop(response.status, response.headers.get('location'), method, at, origin, hop);
          if (!(next instanceof URL)) {
            refused = next;
            break;
          }
          await response.body?.cancel().catch(noop);
          if (over) return;
          at = next.href;
        }
        const answered = response;
        const { headers: got, url: from } = answered;
        status = answered.status;
        // Another origin's answer (a custom fetch that followed a redirect itself, or one that says it was
        // redirected but not from where) is never the node's; then every answer's headers, errors
        // included: a 410 of another chain says nothing of this one's history.
        const refusal = over ? 1 : (from || answered.redirected) && !`${from}/`.startsWith(`${origin}/`) ? new OtherOrigin(`the answer came from another origin (${from.split('/', 3).join('/') || 'unnamed'})`) : check?.(got, { method, url: where() });
        if (refusal) {
          answered.body?.cancel().catch(noop);
          if (over) return;
          throw refusal;
        }
        stage = 2;
        // Counted as it streams, decoded; an error body is kept even when cut short (at 64 KiB): the status is the answer.
        const { ok } = answered;
        const max = ok ? maxBytes : Math.min(maxBytes, 65_536);
        const decoder = new TextDecoder();
        let text = '';
        let size = 0;
        reader = answered.body?.getReader();
        try {
          for (let r: ReadableStreamReadResult<Uint8Array>; reader && !(r = await reader.read()).done; ) {
            const chunk = r.value.subarray(0, max - size);
            size += chunk.length;
            text += decoder.decode(chunk, { stream: true });
            if (chunk.length < r.value.length) {
              reader.cancel().catch(noop);
              if (!ok) break;
              throw new ResponseTooLargeError({ status, method, url: where(), limitBytes: max });
            }
          }
        } catch (err) {
          if (ok) throw err instanceof ClientError ? err : new Error(`cut short after ${size} bytes`, { cause: err });
        }
        text += decoder.decode();
        void request;
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch (err) {
          if (ok) throw new ResponseParseError({ status, method, url: where(), bodySnippet: text.slice(0, 200), cause: text ? err : new Error('empty body') });
          // An error body that is not JSON (or was cut short) is its text; an empty one is none.
          parsed = text || undefined;
        }
        if (!ok) {
          throw failure({
            status, body: parsed, method, url: where(), headers: got,
            retryAfterMs: parseRetryAfter(got.get('retry-after'), policy.now()),
            // Why a redirect was not followed says more than its body.
            ...(refused && { message: refused }),
          });
        }
        const result = validator?.(call.operationId, status, parsed);
        if (result && !result.ok) throw new ResponseValidationError({ operationId: call.operationId, issues: result.issues, body: parsed });
        // The operation's own reading of its answer (a header cursor, an answer checked against the request).
        return call.op.answer ? call.op.answer(parsed, got, call.path) : parsed;
      };
      run().then(
        (value) => end() && resolve(value),
        (err: unknown) =>
          end() &&
          reject(
            err instanceof ClientError || !stage ? err
            // Not sent, answered by another origin, or a redirect a browser hid: the network's failure.
            : stage < 2 ? new NetworkError({ method, url: where(), cause: err })
            // The response started but its body could not be read to the end (reset, truncated).
            : new ResponseParseError({ status, method, url: where(), cause: err }),
          ),
      );
    });

  // Its call and retries are every one-node transport's (transport.ts).
  return oneNode(url, policy, prepare, attempt);
}

function noop(): void {}
