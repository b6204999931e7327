/**
 * The one-node transport on `fetch`: written for the bundle of an app that calls one action. One
 * closure per transport, one attempt function, no hooks a one-action user never runs; what a service
 * knows beyond HTTP comes in its `Service`, what an operation does is in its table entry.
 */
import { ClientError, NetworkError, ResponseParseError, ResponseTooLargeError, TimeoutError } from '../errors.js';
import { BodyTooLarge } from '../read-text.js';
import { foreignAnswer, OPAQUE, OtherOrigin, redirectHop } from '../redirects.js';
import { redactUrl } from '../redact.js';
import { deadline } from '../deadline.js';
import { readAnswer, transportWith, type AttemptMaker, type OneNodeOptions, type Service, type Transport } from '../transport.js';

/**
 * A transport to one node: checks arguments, sends, times out, retries, reads (bounded), parses and
 * validates; redirects within the origin only; typed errors. `fetch(url, init)` unless the options give a
 * custom `fetch`, which is called with one `Request` per request (the default path builds none: a Request
 * per call costs ~15% throughput on loopback). What a service knows beyond HTTP comes in `service`.
 *
 * Every call ends: a timeout or a caller's abort settles the attempt on the transport's own timer or
 * listener, aborts its request and cancels its body, without waiting for fetch to notice. The signal
 * fetch follows is the attempt's own, passed directly, and a Request the transport built is held by the
 * attempt until it ends (a signal followed through a collected Request is lost: nodejs/undici#4068).
 *
 * @example
 * ```ts
 * const transport = createTransport({ baseUrl: 'http://localhost:27000', timeoutMs: 5_000 });
 * const body = await transport.call('getAccountV2', operations.getAccountV2, { address: '0x1' });
 * ```
 */
export function createTransport(options: OneNodeOptions, service: Service = {}): Transport {
  return transportWith(options, service, fetchAttempt);
}

/** The attempt of {@link createTransport}: one `fetch` per hop, settled on the first of its answer, timer and signal. */
const fetchAttempt: AttemptMaker = (context) => {
  const { url, timeoutMs, maxBytes, errorBytes, headers, fetch: custom, service: { check } } = context;
  const origin = new URL(url).origin;
  return (call, signal) =>
    new Promise((resolve, reject) => {
      const { method } = call.op;
      const controller = new AbortController();
      // The URL sent; redacted only when an error shows it.
      const sent = url + call.target;
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
      const clear = deadline(timeoutMs, signal, stop, () => new TimeoutError({ method, url: redactUrl(sent), timeoutMs }));
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
        const send = (to: string): Promise<Response> => (custom ? custom((request = new Request(to, init))) : fetch(to, init));
        stage = 1;
        let response = await send(sent);
        let refused: string | undefined;
        // Redirects within the origin are sent again; one elsewhere is the answer, and says where it led.
        for (let hop = 0, at = sent; ; hop++) {
          if (response.type === 'opaqueredirect') throw new OtherOrigin(OPAQUE);
          const next = redirectHop(response.status, response.headers.get('location'), method, at, origin, hop);
          if (!(next instanceof URL)) {
            refused = next?.refused;
            break;
          }
          await response.body?.cancel().catch(noop);
          if (over) return;
          response = await send((at = next.href));
        }
        const answered = response;
        status = answered.status;
        // Another origin's answer (a custom fetch that followed a redirect itself) is never the node's. Then
        // every answer's headers, errors included: a 410 of another chain says nothing of this one's history.
        const refusal = over ? 1 : (foreignAnswer(answered, sent) ?? check?.(answered.headers, { method, url: redactUrl(sent) }));
        if (refusal) {
          answered.body?.cancel().catch(noop);
          if (over) return;
          throw refusal;
        }
        stage = 2;
        // Counted as it streams, decoded; an error body is kept even when cut short: the status is the answer.
        reader = answered.body?.getReader();
        const text = reader ? await read(reader, !answered.ok, answered.ok ? maxBytes : errorBytes) : '';
        void request;
        return readAnswer(context, call, { status, statusText: answered.statusText, headers: () => answered.headers, text, sent, refused });
      };
      run().then(
        (value) => end() && resolve(value),
        (err: unknown) => {
          if (!end()) return;
          const where = redactUrl(sent);
          reject(
            err instanceof ClientError || stage === 0 ? err
            : err instanceof BodyTooLarge ? new ResponseTooLargeError({ status, method, url: where, limitBytes: err.limitBytes })
            // Not sent, answered by another origin, or a redirect a browser hid: the network's failure.
            : stage === 1 ? new NetworkError({ method, url: where, cause: err })
            // The response started but its body could not be read to the end (reset, truncated).
            : new ResponseParseError({ status, method, url: where, cause: err }),
          );
        },
      );
    });
};

function noop(): void {}

/**
 * A body read to its end as UTF-8 text, its decoded bytes counted as they stream in: past `max` the read
 * is cancelled and rejects with `BodyTooLarge`; a body cut short rejects with `cut short after N bytes`.
 * An error body (`partial`) keeps what arrived instead, at most `max` bytes: its status is the answer.
 */
async function read(reader: ReadableStreamDefaultReader<Uint8Array>, partial: boolean, max: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (let r: ReadableStreamReadResult<Uint8Array>; !(r = await reader.read()).done; ) {
      const chunk = r.value.subarray(0, max - size);
      chunks.push(chunk);
      size += chunk.length;
      if (chunk.length < r.value.length) {
        reader.cancel().catch(noop);
        if (partial) break;
        throw new BodyTooLarge(max);
      }
    }
  } catch (err) {
    if (!partial) throw err instanceof BodyTooLarge ? err : new Error(`cut short after ${size} bytes`, { cause: err });
  }
  const bytes = new Uint8Array(size);
  size = 0;
  for (const chunk of chunks) bytes.set(chunk, (size += chunk.length) - chunk.length);
  return new TextDecoder().decode(bytes);
}
