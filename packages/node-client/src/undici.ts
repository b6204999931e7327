import { ClientError, InvalidArgumentError, NetworkError, redactUrl, ResponseParseError, ResponseTooLargeError, TimeoutError, type Transport } from '@x/client-core';
import { BodyTooLarge, BoundedText, deadline, readAnswer, redirectHop, transportWith, type AttemptMaker } from '@x/client-core/internal';
import { NODE_RPC_BASE_URL } from '@x/common';
import { Agent, Dispatcher as UndiciDispatcher, getGlobalDispatcher, type Dispatcher } from 'undici';
import type { Transform } from 'node:stream';
import { decodersOf } from './decode.js';
import { nodeService, type HttpOptions } from './transports.js';

/** Options of {@link httpUndici}: those of `http` but `fetch`, and undici's `dispatcher`. */
export type HttpUndiciOptions = Omit<HttpOptions, 'fetch'> & {
  /**
   * The undici dispatcher the requests go through (an `Agent` with more connections per origin, a
   * `ProxyAgent`); default: undici's global dispatcher (`setGlobalDispatcher`) when it is one of this
   * undici's, else an `Agent` of the transport's own: Node's fetch, run first, installs its bundled
   * undici's, which takes no handler of this one.
   */
  dispatcher?: Dispatcher | undefined;
};

type RawHeaders = Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>[2];

/** undici's headers (lowercase names, a repeated one as a list) as a `Headers`, which services and operations read. */
function headersOf(raw: RawHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.append(name, value);
  }
  return headers;
}

/** Where a request goes, as undici's `dispatch` takes it: the origin, and the path with its query. */
function targetOf(url: string, origin: string): { origin: string; path: string } {
  if (url.startsWith(origin) && url.charCodeAt(origin.length) === 47) return { origin, path: url.slice(origin.length) };
  const parsed = new URL(url);
  return { origin: parsed.origin, path: parsed.pathname + parsed.search };
}

/**
 * The attempt of {@link httpUndici}: undici's `dispatch` (what its `request` is made of, without the
 * abort signal and the body stream, which cost a call on loopback about as much as the rest of the
 * client), with what `createTransport`'s fetch attempt guarantees: every attempt settles on its timer or
 * the caller's abort at once (the request aborted with it), bodies are counted as they arrive and
 * refused past the limit, redirects are followed within the origin only, and the answer is read by the
 * same `readAnswer`.
 */
let own: Agent | undefined;
/**
 * The global dispatcher when it is this undici's; Node's own fetch, when it runs first, installs its
 * bundled undici's (another copy, on Node 20 another major), which refuses this one's handlers
 * (nodejs/undici#4827): then one Agent of this module, shared by every transport without a dispatcher.
 */
function defaultDispatcher(): Dispatcher {
  const global = getGlobalDispatcher();
  return global instanceof UndiciDispatcher ? global : (own ??= new Agent());
}

function undiciAttempt(given: Dispatcher | undefined): AttemptMaker {
  return (context) => {
    const { timeoutMs, maxBytes, errorBytes, service } = context;
    const { check } = service;
    const origin = new URL(context.url).origin;
    // undici takes headers as a flat list of names and values.
    const headers = context.headers?.flat() ?? null;
    // A body's type is the operation's, whatever the `headers` option says.
    const withJson = [...(context.headers ?? []).filter(([name]) => name !== 'content-type').flat(), 'content-type', 'application/json'];
    return (call, signal) =>
      new Promise((resolve, reject) => {
        const { method } = call.op;
        // The URL sent; redacted only when an error shows it.
        let sent = context.url + call.op.path;
        let status = 0;
        let over = false;
        // The request in flight, for a timeout or abort to stop (undici hands it over once it starts).
        let controller: Dispatcher.DispatchController | undefined;
        let stopped: Error | undefined;
        const end = (): boolean => {
          if (over) return false;
          over = true;
          clear();
          return true;
        };
        /** Ends the attempt from outside (timeout, caller's abort): settle now, then stop the request. */
        const stop = (reason: unknown): void => {
          if (!end()) return;
          reject(reason);
          stopped = reason instanceof Error ? reason : new Error('aborted', { cause: reason });
          controller?.abort(stopped);
        };
        const clear = deadline(timeoutMs, signal, stop, () => new TimeoutError({ method, url: redactUrl(sent), timeoutMs }));
        // A signal that aborted before the attempt began (a router's attempt waits a tick) fires no event.
        if (signal?.aborted) return stop(signal.reason);

        const fail = (err: unknown, responded: boolean): void => {
          if (!end()) return;
          if (err instanceof ClientError) return reject(err);
          const where = redactUrl(sent);
          if (err instanceof BodyTooLarge) return reject(new ResponseTooLargeError({ status, method, url: where, limitBytes: err.limitBytes }));
          // The response started but its body could not be read to the end (reset, truncated).
          reject(responded ? new ResponseParseError({ status, method, url: where, cause: err }) : new NetworkError({ method, url: where, cause: err }));
        };
        /** The answer read to its end (or an error answer's first bytes): the attempt's result. */
        const finish = (held: BoundedText, raw: RawHeaders, statusText: string, refused: string | undefined): void => {
          if (!end()) return;
          let read: Headers | undefined;
          try {
            resolve(readAnswer(context, call, { status, statusText, headers: () => (read ??= headersOf(raw)), text: held.text(), sent, refused }));
          } catch (err) {
            reject(err);
          }
        };

        const dispatcher = given ?? defaultDispatcher();
        const send = (current: string, hop: number): void => {
          // What this request's answer is: a hop to follow, or the answer, read into `held`.
          let next: string | undefined;
          let held: BoundedText | undefined;
          let raw: RawHeaders = {};
          let statusText = '';
          let refused: string | undefined;
          // A body with a content coding (its value), decoded as fetch does; the decoders are made from
          // its first chunk (whose first byte tells a raw deflate), `input` the first of them.
          let coding: string | undefined;
          let decoders: Transform[] = [];
          let input: Transform | undefined;
          const undecode = (): void => decoders.forEach((d) => d.destroy());
          /** Holds `chunk` of the body as read (decoded): past the limit, the answer is settled and the request stopped. */
          const keep = (c: Dispatcher.DispatchController, chunk: Uint8Array): void => {
            if (held === undefined || held.add(chunk)) return;
            const ok = status >= 200 && status <= 299;
            // Not one byte more: the connection goes (an endless body would otherwise flow until the timeout).
            if (ok) fail(new BodyTooLarge(maxBytes), true);
            else finish(held, raw, statusText, refused);
            undecode();
            c.abort(new BodyTooLarge(held.maxBytes));
          };
          /** Sends `chunk` of a coded body through the decoders, whose output is kept. */
          const decode = (c: Dispatcher.DispatchController, chunk: Uint8Array, encoding: string): void => {
            if (input === undefined) {
              try {
                decoders = decodersOf(encoding, chunk[0] ?? 0);
              } catch (err) {
                fail(err, true);
                return c.abort(err as Error);
              }
              input = decoders[0];
              // A coding fetch does not know: the body is read as sent, as fetch reads it.
              if (input === undefined) {
                coding = undefined;
                return keep(c, chunk);
              }
              const broken = (err: Error): void => {
                undecode();
                if (over) return;
                // An error answer keeps what was decoded (the status is the answer); a success's body is unreadable.
                if (held !== undefined && !(status >= 200 && status <= 299)) finish(held, raw, statusText, refused);
                else fail(err, true);
                c.abort(err);
              };
              for (const d of decoders) d.on('error', broken);
              const output = decoders.slice(1).reduce<Transform>((from, to) => from.pipe(to), input);
              output.on('data', (data: Uint8Array) => (over ? undecode() : keep(c, data)));
              output.on('end', () => finish(held ?? new BoundedText(0), raw, statusText, refused));
            }
            // Bounded memory: the network waits while the decoders are behind.
            if (!input.write(chunk)) {
              c.pause();
              input.once('drain', () => c.resume());
            }
          };
          const handler: Dispatcher.DispatchHandler = {
            onRequestStart(c) {
              controller = c;
              if (stopped) c.abort(stopped);
            },
            onResponseStart(c, statusCode, responseHeaders, statusMessage) {
              if (over) return c.abort(stopped ?? new Error('attempt ended'));
              status = statusCode;
              raw = responseHeaders;
              statusText = statusMessage ?? '';
              const { location } = responseHeaders;
              const hopTo = location === undefined ? undefined : redirectHop(statusCode, Array.isArray(location) ? location[0] : location, method, current, origin, hop);
              // A hop's body (a few bytes, if any) is read and dropped, so the connection stays in the pool.
              if (hopTo instanceof URL) return void (next = hopTo.href);
              refused = hopTo;
              // Every answer's headers, errors included: a 410 of another chain says nothing of this one's history.
              const refusal = check?.(headersOf(responseHeaders), { method, url: redactUrl(sent) });
              if (refusal) {
                fail(refusal, true);
                return c.abort(refusal);
              }
              // The bytes counted are the decoded body's, so a decompression bomb stops at the limit. An
              // error body is kept even when cut short (the status is the answer), up to 64 KiB.
              held = new BoundedText(statusCode >= 200 && statusCode <= 299 ? maxBytes : errorBytes);
              // undici decodes nothing; fetch decodes every body but a HEAD's, a 204's and a 304's (none).
              const encoding = responseHeaders['content-encoding'];
              if (encoding !== undefined && statusCode !== 204 && statusCode !== 304 && method !== 'HEAD') coding = String(encoding);
            },
            onResponseData(c, chunk) {
              if (coding === undefined) keep(c, chunk);
              else if (held !== undefined && !over) decode(c, chunk, coding);
            },
            onResponseEnd() {
              if (over) return;
              if (next !== undefined) return send(next, hop + 1);
              // Settled once the decoders have given all they hold.
              if (input !== undefined) return void input.end();
              finish(held ?? new BoundedText(0), raw, statusText, refused);
            },
            onResponseError(_c, err) {
              undecode();
              // An error answer cut short keeps what arrived; anything else fails the attempt.
              if (held !== undefined && !(status >= 200 && status <= 299)) return finish(held, raw, statusText, refused);
              fail(err, held !== undefined);
            },
          };
          try {
            const to = targetOf(current, origin);
            dispatcher.dispatch({ origin: to.origin, path: to.path, method, headers: call.body === undefined ? headers : withJson, body: call.body ?? null }, handler);
          } catch (err) {
            fail(err, false);
          }
        };
        try {
          sent = context.target(call);
        } catch (err) {
          // A value encodeURIComponent refuses (a lone surrogate): the attempt ends like any failure.
          if (end()) reject(err);
          return;
        }
        send(sent, 0);
      });
  };
}

/**
 * A transport for one node on undici's `request` (Node only): what `http` does (timeouts, retries with
 * backoff and `Retry-After`, redirects within the origin only, bounded bodies, the same errors, the
 * chain id check), at about 4x `http`'s throughput on a busy keep-alive connection pool, where fetch's
 * `Request`/`Response`/web-stream layers are most of a call's cost: for an indexer that sends many
 * calls at once. It composes with `fallback` and every action like `http`. undici (>= 7) is an
 * optional peer dependency: install it beside the client.
 *
 * @example
 * ```ts
 * import { getAccountV3, NODE_URLS } from '@x/node-client';
 * import { httpUndici } from '@x/node-client/node';
 * const node = httpUndici({ baseUrl: NODE_URLS.testnet, timeoutMs: 5_000 });
 * const account = await getAccountV3(node, '0x1');
 * ```
 */
export function httpUndici(options: HttpUndiciOptions = {}): Transport {
  if ((options as { fetch?: unknown }).fetch !== undefined) throw new InvalidArgumentError('fetch', 'is not an option of httpUndici, which sends with undici: give a dispatcher, or use http');
  const { dispatcher, ...rest } = options;
  return transportWith({ ...rest, baseUrl: options.baseUrl ?? NODE_RPC_BASE_URL }, nodeService(options), undiciAttempt(dispatcher));
}
