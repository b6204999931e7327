// The one rule by which a request path names an operation of the route table (read from the generated
// operation tables): hand-written, so the generator emits data only.
import { routes, type Route, type RouteService } from './operations.js';

/** A route a path names, with its path parameters decoded, by name. */
export interface RouteMatch {
  readonly route: Route;
  readonly params: Readonly<Record<string, string>>;
}

export interface MatchRouteOptions {
  /** Only the routes of this service. */
  readonly service?: RouteService;
  /** Only the routes of this method (any case); every method when absent. */
  readonly method?: string;
  /**
   * Match a template at the end of the path, the longest template first, so that a path behind a proxy
   * prefix or a server's base path (`/node/rpc/v2/...`) or with one trailing slash still finds its
   * operation (recorded traffic). Default: the template must be the whole path.
   */
  readonly suffix?: boolean;
  /**
   * Whether a path parameter may be an empty segment (`/rpc/v2/accounts//transactions`), for a reader
   * that answers such a path with its own error. Default: a parameter is a non-empty segment.
   */
  readonly emptyParams?: boolean;
}

/**
 * The segments of a path after its first `/`, each percent-decoded; `undefined` when one is not valid
 * percent-encoding.
 */
export function pathSegments(path: string): string[] | undefined {
  const parts = path.split('/').slice(1);
  try {
    return parts.map((p) => decodeURIComponent(p));
  } catch {
    return undefined;
  }
}

/** Path parameters of a template's segments. */
const params = (segments: readonly string[]): number => segments.filter((s) => s.startsWith('{')).length;

// The longest template first; of as many segments, the one with fewer parameters, so that a literal
// segment wins over a parameter that would take it (`/rpc/v3/transactions/estimate_gas_price` is the gas
// price, not a transaction whose hash is `estimate_gas_price`). Templates with as many parameters keep
// their spec order (`/rpc/v3/block/height/transactions` is a block by height, a height no node has).
const templates = routes
  .map((route) => ({ route, segments: route.path.split('/').slice(1) }))
  .sort((a, b) => b.segments.length - a.segments.length || params(a.segments) - params(b.segments));

/**
 * The route a request path (without its query) names: segment by segment, decoded (`%74ransactions` is
 * `transactions`), a `{parameter}` matching one segment, a literal segment preferred over a parameter;
 * `undefined` for a path no route names or that is not valid percent-encoding.
 *
 * @example
 * ```ts
 * matchRoute('/rpc/v2/accounts/0x1/transactions'); // { route: { operationId: 'listTransactionsV2', ... }, params: { address: '0x1' } }
 * matchRoute('/proxy/rpc/v2/accounts/0x1/', { method: 'GET', suffix: true })?.route.operationId; // 'getAccountV2'
 * ```
 */
export function matchRoute(path: string, options: MatchRouteOptions = {}): RouteMatch | undefined {
  const segments = pathSegments(path);
  if (segments === undefined) return undefined;
  if (options.suffix === true && segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  const method = options.method?.toUpperCase();
  for (const t of templates) {
    if (options.service !== undefined && t.route.service !== options.service) continue;
    if (method !== undefined && t.route.method !== method) continue;
    const offset = segments.length - t.segments.length;
    if (offset < 0 || (offset > 0 && options.suffix !== true)) continue;
    const params: Record<string, string> = {};
    const matched = t.segments.every((s, i) => {
      const seg = segments[offset + i] as string;
      if (!s.startsWith('{')) return s === seg;
      if (seg === '' && options.emptyParams !== true) return false;
      params[s.slice(1, -1)] = seg;
      return true;
    });
    if (matched) return { route: t.route, params };
  }
  return undefined;
}
