/**
 * The in-memory transport: a `fetch` that answers from the same engine as the loopback server, with no
 * socket, in Node and in browsers. It follows the fetch standard where a test can see it: redirects
 * (`follow`, `manual`, `error`), the request's `AbortSignal` (a rejection with its reason, also while a
 * `slow` answer is pending), a `reset` as a rejected `TypeError`, a `truncated` body that errors half way.
 */
import { answerHeaders, MAX_REQUEST_BODY_BYTES, type Outcome, type RequestBody, type StubEngine } from './engine.ts';
import { REDIRECT_STATUSES } from './faults.ts';
import type { StubResponse } from './router.ts';

/** Options of `createNodeStubFetch` and `createPriceStubFetch`. */
export interface StubFetchOptions {
  /**
   * The origin this fetch serves, e.g. `http://127.0.0.1:27000` (the default of the node stub; the price
   * stub's is `http://127.0.0.1:27001`). Requests to any other origin go to `fallback`.
   */
  url?: string;
  /**
   * Where requests to other origins go (e.g. the other stub's fetch, or `globalThis.fetch`). Without it
   * they reject with a `TypeError`, as a fetch to an unreachable host does.
   */
  fallback?: (input: Request) => Promise<Response>;
}

/** A function with `fetch`'s signature, answered in memory. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const MAX_REDIRECTS = 20;
const isRedirect = (status: number): boolean => (REDIRECT_STATUSES as readonly number[]).includes(status);

/** What fetch rejects with when the connection fails; `cause` says why, as undici's does. */
const networkError = (why: string, code?: string): TypeError =>
  new TypeError('fetch failed', { cause: Object.assign(new Error(why), code === undefined ? {} : { code }) });

function headersOf(request: Request, url: URL): Record<string, string> {
  const out: Record<string, string> = { host: url.host };
  request.headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

function toResponse(r: StubResponse, method: string): Response {
  return new Response(method === 'HEAD' ? null : r.body, { status: r.status, headers: answerHeaders(r) });
}

/** Half the body, then an error, as a connection closed before the announced `Content-Length`. */
function truncated(outcome: Extract<Outcome, { kind: 'truncated' }>): Response {
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(outcome.half);
      } else {
        controller.error(new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }));
      }
    },
  });
  return new Response(body, { status: outcome.status, headers: outcome.headers });
}

function settle(outcome: Outcome, method: string, signal: AbortSignal): Response | Promise<Response> {
  switch (outcome.kind) {
    case 'preflight':
      return new Response(null, { status: 204, headers: outcome.headers });
    case 'answer':
      return toResponse(outcome.response, method);
    case 'reset':
      throw networkError('other side closed', 'UND_ERR_SOCKET');
    case 'truncated':
      return truncated(outcome);
    case 'slow':
      if (signal.aborted) return Promise.reject(signal.reason as unknown);
      return new Promise<Response>((resolve, reject) => {
        const onAbort = (): void => {
          clearTimeout(timer);
          reject(signal.reason);
        };
        const timer = setTimeout(() => {
          signal.removeEventListener('abort', onAbort);
          resolve(toResponse(outcome.respond(), method));
        }, outcome.delayMs);
        signal.addEventListener('abort', onAbort, { once: true });
      });
  }
}

/**
 * A request's body, at most `MAX_REQUEST_BODY_BYTES`: read chunk by chunk and cancelled once over it (as
 * the loopback server stops reading), so that a huge body is never held; `undefined` without one.
 */
async function readBody(body: ReadableStream<Uint8Array> | null): Promise<RequestBody | undefined> {
  if (body === null) return undefined;
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_REQUEST_BODY_BYTES) {
      await reader.cancel();
      return { tooLarge: true };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** `url` and `redirected` as a network fetch sets them (a constructed `Response` has neither). */
function located(response: Response, url: URL, redirected: boolean): Response {
  Object.defineProperty(response, 'url', { value: url.href, enumerable: true });
  Object.defineProperty(response, 'redirected', { value: redirected, enumerable: true });
  return response;
}

/** A fetch answered by `engine` for `origin`. */
export function inMemoryFetch(engine: StubEngine, origin: string, fallback: StubFetchOptions['fallback']): FetchFunction {
  return async (input, init) => {
    const request = new Request(input, init);
    const signal = request.signal;
    if (signal.aborted) throw signal.reason;
    let url = new URL(request.url);
    let method = request.method;
    let redirected = false;
    // Read once, on the first hop this stub answers: a 307 or 308 sends it again.
    let body: RequestBody | undefined;
    let bodyRead = false;
    for (let hop = 0; ; hop++) {
      // An abort between hops ends the call, as it does a network fetch.
      if (signal.aborted) throw signal.reason;
      if (url.origin !== origin) {
        if (fallback === undefined) throw networkError(`${url.origin} is not served by this in-memory stub (${origin}); pass a fallback to reach it`);
        // The request as it came (body, credentials, cache...); after a redirect, the hop's URL and method.
        if (hop === 0) return fallback(request);
        const resent = typeof body === 'string' && method !== 'GET' && method !== 'HEAD' ? { body } : {};
        const response = await fallback(new Request(url, { method, headers: request.headers, signal, redirect: request.redirect, ...resent }));
        if (!response.redirected) Object.defineProperty(response, 'redirected', { value: true, enumerable: true });
        return response;
      }
      if (!bodyRead) {
        bodyRead = true;
        body = await readBody(request.body);
      }
      // As the loopback server: no body read for GET, HEAD and OPTIONS, and an absent one is empty text.
      const carries = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
      const outcome = engine.dispatch(method, url.pathname + url.search, headersOf(request, url), carries ? (body ?? '') : undefined);
      const response = await settle(outcome, method, signal);
      const location = response.headers.get('location');
      if (!isRedirect(response.status) || location === null || request.redirect === 'manual') return located(response, url, redirected);
      if (request.redirect === 'error') throw networkError('unexpected redirect');
      if (hop === MAX_REDIRECTS) throw networkError('redirect count exceeded');
      await response.body?.cancel();
      url = new URL(location, url);
      redirected = true;
      // As the fetch standard: a 303 becomes a GET, and so does a 301/302 after a POST.
      if ((response.status === 303 && method !== 'HEAD') || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
    }
  };
}
