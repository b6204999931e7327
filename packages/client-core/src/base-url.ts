/**
 * A client's `baseUrl`, read once: an absolute http(s) URL, or several, each without credentials, query,
 * fragment or the client's own API path.
 */
import { InvalidArgumentError } from './errors.js';

/** A value echoed in a refusal: a host, a port and a path, nothing that could be a secret. */
const SAFE = /^[\w.-]+(:\d+)?(\/[\w.~/-]*)?$/;

/**
 * Reads a client's `baseUrl`: an absolute http(s) URL without credentials, query or fragment, or in a
 * browser a path of the page's origin (`/prices`, a same-origin proxy) (anything
 * else fails later, confusingly). A malformed value is not echoed, since it may still carry a secret;
 * the two usual mistakes echo it once it is known to hold none (no credentials, query or fragment), and
 * `explain(err)` gives the URL that was probably meant: a host without a scheme (`rpc-mainnet.supra.com`
 * → `https://` + it), and a URL that ends in one of `apiPaths`, the client's own (the node client's
 * `/rpc/v2`, the price client's `/history`: the client appends those itself).
 *
 * @example
 * ```ts
 * parseBaseUrl('http://localhost:27000/').href; // 'http://localhost:27000/'
 * parseBaseUrl('rpc-mainnet.supra.com');        // throws: baseUrl not an http(s) URL, got "rpc-mainnet.supra.com" (explain(err): did you mean "https://rpc-mainnet.supra.com"?)
 * ```
 */
export function parseBaseUrl(value: unknown, apiPaths: readonly string[] = []): URL {
  let url: URL | undefined;
  try {
    // In a page (or a worker) a path is its own origin's: a same-origin proxy is `/prices`.
    if (typeof value === 'string') url = new URL(value, /^\/(?!\/)/.test(value) ? (globalThis as { location?: { href?: string } }).location?.href : undefined);
  } catch {
    // Not a URL: refused below.
  }
  const path = url?.pathname.replace(/\/$/, '');
  const api = apiPaths.find((p) => path?.endsWith(p));
  // Short messages; `explain(err)` says what a base URL is and gives the URL probably meant from the value
  // echoed here: only a host, a port and a path (no secret), or the URL that ends in an API path (the
  // client appends those itself), known by then to hold no credentials, query or fragment.
  const problem: [string, unknown?] | undefined =
    !/^https?:$/.test(url?.protocol ?? '') ? ['not an http(s) URL', typeof value === 'string' && SAFE.test(value) && value]
    // fetch refuses such URLs (a TypeError on every call); headers are the place for credentials.
    : url!.username || url!.password ? ['has credentials']
    // Paths are appended to the base URL, so a query or fragment in it would end up before them.
    : url!.search || url!.hash ? ['has a query or fragment']
    : api ? [`ends in ${url!.pathname.slice(path!.length - api.length)}`, url!.href]
    : undefined;
  if (problem) throw new InvalidArgumentError('baseUrl', problem[0] + (problem[1] ? `, got ${JSON.stringify(problem[1])}` : ''));
  return url!;
}

/**
 * The base URLs of a client as a list: one URL, or several in order of preference, each an absolute
 * http(s) URL, no two the same. The value is never echoed (a malformed URL may carry a secret).
 *
 * @example
 * ```ts
 * baseUrls(['https://a.example/', 'https://b.example']); // ['https://a.example', 'https://b.example']
 * ```
 */
export function baseUrls(value: unknown, apiPaths: readonly string[] = []): string[] {
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  if (list.length === 0) throw new InvalidArgumentError('baseUrl', 'must name at least one node');
  const urls = list.map((u) => parseBaseUrl(u, apiPaths).href.replace(/\/+$/, ''));
  const twice = urls.findIndex((u, i) => urls.indexOf(u) !== i);
  if (twice !== -1) throw new InvalidArgumentError('baseUrl', `lists the same node twice (entry ${twice})`);
  return urls;
}

