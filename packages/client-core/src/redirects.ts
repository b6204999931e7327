/**
 * Redirects, followed by the clients themselves and only within the origin asked.
 *
 * fetch's own `redirect: 'follow'` keeps every custom header on a hop to another origin (it drops only
 * `Authorization`, and the runtime's cookies), so a node or proxy that redirects would hand a provider
 * key in `x-api-key`, or whatever else `headers` holds, to a host the user never named, and its answer
 * would come back as the node's. So every request goes out with `redirect: 'manual'`: a hop within the
 * same origin is sent again with the same headers, a hop to another origin is not sent at all and the
 * 3xx is the answer (an `HttpError` that says where it led, and that moves a call with several nodes
 * to the next node). Refusing, rather than following without the headers, also keeps another origin's
 * answer from ever being taken as the node's; a user whose service moved points `baseUrl` there.
 */

/** fetch's own limit on hops; past it the 3xx is the answer. */
const MAX_HOPS = 20;
/** Why a redirect a browser hid is not followed (the message `explain` recognises). */
export const OPAQUE = 'redirect not followed: opaque redirect';

/**
 * One request of a call, as the transport sends it: the custom fetch or the global one.
 * @internal
 */
export type Send = (request: Request) => Promise<Response>;

/**
 * Options of {@link sendWithinOrigin}.
 * @internal
 */
export type SendOptions = {
  /** The answer to `request` when it was sent already (the transport's direct path sends it without a Request). */
  first?: Response;
  /** Hears why a redirect was not followed: where it led, or that there were too many. */
  onRefused?: (why: string) => void;
  /** Hops followed before the 3xx is the answer (default 20, fetch's own limit). */
  maxHops?: number;
};

/**
 * Sends `request` with `redirect: 'manual'` and follows its redirects within its origin (GET and HEAD
 * only: a body cannot be replayed). A hop elsewhere is not taken: the 3xx is returned as the answer,
 * and `onRefused` hears why (where it led).
 *
 * In a browser a manual redirect is an `opaqueredirect` answer that hides where it leads; finding out
 * would take a second request, so it is refused: the promise rejects with an `OtherOrigin` (a
 * `NetworkError` to the caller of a client, which `explain` explains). Point `baseUrl` where it leads.
 *
 * @example
 * ```ts
 * const response = await sendWithinOrigin((r) => fetch(r), new Request('https://node.example/rpc/v2/accounts/0x1'), { maxHops: 5 });
 * ```
 * @internal
 */
export async function sendWithinOrigin(send: Send, request: Request, options: SendOptions = {}): Promise<Response> {
  const { first, onRefused, maxHops = MAX_HOPS } = options;
  const origin = new URL(request.url).origin;
  let current = request.redirect === 'manual' ? request : new Request(request, { redirect: 'manual' });
  let response = first ?? (await send(current));
  for (let hop = 0; ; hop++) {
    if (response.type === 'opaqueredirect') throw new OtherOrigin(OPAQUE);
    const target = redirectHop(response.status, response.headers.get('location'), current.method, current.url, origin, hop, maxHops);
    if (target === undefined) return response;
    // The 3xx is the answer, its body left for whoever reads the answer (the transport, bounded).
    if (typeof target === 'string') {
      onRefused?.(target);
      return response;
    }
    await response.body?.cancel().catch(noop);
    // Each hop follows the first request's signal, which its caller holds, never the hop before's: a
    // signal followed through a Request that is collected is lost (nodejs/undici#4068).
    current = new Request(target, { method: current.method, headers: current.headers, signal: request.signal, redirect: 'manual' });
    response = await send(current);
  }
}


/**
 * What every client of this package does with an answer that may be a redirect (the fetch transport,
 * undici's, `sendWithinOrigin`): the URL to send again to (`location` resolved against `current`, within
 * `current`'s origin `origin`), or why it is not followed (a message: the 3xx is then the answer), or
 * undefined when the answer is no redirect this module acts on (the answer stands): a status fetch would
 * follow, of a GET or HEAD (a body cannot be replayed). `hop` counts the hops followed already.
 *
 * @example
 * ```ts
 * redirectHop(302, '/rpc/v3/accounts/0x1', 'GET', 'http://node.example/rpc/v2/accounts/0x1', 'http://node.example', 0); // URL http://node.example/rpc/v3/accounts/0x1
 * ```
 * @internal
 */
export function redirectHop(status: number, location: string | null | undefined, method: string, current: string, origin: string, hop: number, maxHops = MAX_HOPS): URL | string | undefined {
  if (!/^30[12378]$/.test(`${status}`) || location == null || (method !== 'GET' && method !== 'HEAD')) return undefined;
  let target: URL;
  try {
    target = new URL(location, current);
  } catch {
    return 'redirect not followed: bad Location';
  }
  return hop === maxHops ? `redirect not followed: more than ${maxHops} redirects`
    : target.origin !== origin ? `redirect not followed: it leads to another origin (${target.origin})`
    : target;
}

/**
 * Why an answer is not taken: it comes, or would come, from another origin than the one asked. The
 * transport fails the attempt with a `NetworkError` caused by it and does not retry it (it would repeat);
 * with several nodes the call moves on.
 */
export class OtherOrigin extends Error {}

function noop(): void {}
