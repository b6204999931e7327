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
 * parseBaseUrl('rpc-mainnet.supra.com');        // throws: ... got "rpc-mainnet.supra.com" (explain(err): did you mean "https://rpc-mainnet.supra.com"?)
 * ```
 */
export function parseBaseUrl(value: unknown, apiPaths: readonly string[] = []): URL {
  // In a page (or a worker) a path is its own origin's: a same-origin proxy is `/prices`.
  const page = (globalThis as { location?: { href?: string } }).location?.href;
  const relative = typeof value === 'string' && /^\/(?!\/)/.test(value);
  const refuse = (problem: string): InvalidArgumentError => new InvalidArgumentError('baseUrl', problem);
  let url: URL | undefined;
  try {
    if (typeof value === 'string') url = new URL(value, relative ? page : undefined);
  } catch {
    // Not a URL: refused below.
  }
  // Short messages; `explain(err)` gives the URL that was probably meant, from the value echoed here.
  // Echoed only when it is nothing but a host, a port and a path (no secret).
  if (!/^https?:$/.test(url?.protocol ?? '')) throw refuse(`must be an absolute http: or https: URL${relative ? ' (no page here)' : typeof value !== 'string' || !SAFE.test(value) ? '' : `, got ${JSON.stringify(value)}`}`);
  // fetch refuses such URLs (a TypeError on every call); headers are the place for credentials.
  if (url!.username || url!.password) throw refuse('must not contain credentials');
  // Paths are appended to the base URL, so a query or fragment in it would end up before them.
  if (url!.search || url!.hash) throw refuse('must not contain a query or fragment');
  // The client appends its API paths itself (nothing secret is left in the URL to echo).
  const path = url!.pathname.replace(/\/$/, '');
  const api = apiPaths.find((p) => path.endsWith(p));
  if (api) throw refuse(`must not end in the API path ${url!.pathname.slice(path.length - api.length)}, got ${JSON.stringify(url!.href)}`);
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

