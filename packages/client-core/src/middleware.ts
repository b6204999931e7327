import type { Middleware, MiddlewareCallbackParams } from 'openapi-fetch';

/**
 * The middleware registered with a client's `raw.use()`, kept in step with openapi-fetch's own list, so
 * that the transport's calls run the same middleware as `raw.GET()` and friends. openapi-fetch does not
 * expose its list: `use` and `eject` are wrapped and forward one item at a time, which keeps their
 * semantics (falsy items skipped, an invalid one throws after the ones before it were added, `eject`
 * removes the first occurrence of each).
 *
 * @example
 * ```ts
 * const list = mirrorMiddleware(raw);
 * raw.use({ onRequest: ({ request }) => console.log(request.url) });
 * list.length; // 1
 * ```
 */
export function mirrorMiddleware(raw: { use(...m: Middleware[]): void; eject(...m: Middleware[]): void }): readonly Middleware[] {
  const list: Middleware[] = [];
  const { use, eject } = raw;
  raw.use = (...items) => {
    for (const m of items) {
      use.call(raw, m);
      if (m) list.push(m);
    }
  };
  raw.eject = (...items) => {
    for (const m of items) {
      eject.call(raw, m);
      const i = list.indexOf(m);
      if (i !== -1) list.splice(i, 1);
    }
  };
  return list;
}

/** What a middleware hook is told besides the request: as openapi-fetch tells it. */
export type MiddlewareContext = Omit<MiddlewareCallbackParams, 'request' | 'id'>;

/**
 * Sends `request` through `list` as openapi-fetch does: every `onRequest` in order (one may replace the
 * request, or answer with a Response, which ends the run), then fetch, then every `onError` (on a
 * fetch failure) in reverse order, then every `onResponse` in reverse order.
 *
 * @example
 * ```ts
 * const response = await runMiddleware(list, new Request(url), (r) => fetch(r), { schemaPath: '/latest', params: {}, options });
 * ```
 */
export async function runMiddleware(
  list: readonly Middleware[],
  request: Request,
  fetch: (request: Request) => Promise<Response>,
  context: MiddlewareContext,
): Promise<Response> {
  const id = Math.random().toString(36).slice(2, 11);
  const params = (): MiddlewareCallbackParams => ({ ...context, request, id });
  let response: Response | undefined;
  for (const m of list) {
    const result = await m.onRequest?.(params());
    if (!result) continue;
    if (result instanceof Request) request = result;
    else if (result instanceof Response) {
      response = result;
      break;
    } else throw new Error('onRequest: must return new Request() or Response() when modifying the request');
  }
  if (response) return response; // answered by onRequest: no fetch, and no onError or onResponse either
  try {
    response = await fetch(request);
  } catch (error) {
    let failure: unknown = error;
    for (let i = list.length - 1; i >= 0; i--) {
      const result = await list[i]!.onError?.({ ...params(), error: failure });
      if (!result) continue;
      if (result instanceof Response) {
        failure = undefined;
        response = result;
        break;
      }
      if (result instanceof Error) failure = result;
      else throw new Error('onError: must return new Response() or instance of Error');
    }
    if (!response) throw failure;
  }
  for (let i = list.length - 1; i >= 0; i--) {
    const result: unknown = await list[i]!.onResponse?.({ ...params(), response });
    if (!result) continue;
    if (!(result instanceof Response)) throw new Error('onResponse: must return new Response() when modifying the response');
    response = result;
  }
  return response;
}
