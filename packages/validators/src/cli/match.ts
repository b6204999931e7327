import { routes, type Route } from '../generated/routes.js';

type Compiled = { route: Route; method: string; pattern: RegExp; segments: number };

// Templates match at the end of the path, so recordings through a proxy prefix (`/node/rpc/v2/...`)
// or with a server's base path still find their operation. Longer templates win.
const compiled: Compiled[] = routes
  .map((route) => {
    const source = route.path
      .split('/')
      .filter(Boolean)
      .map((seg) => (/^\{.+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return { route, method: route.method, pattern: new RegExp(`(?:^|/)${source}/?$`), segments: route.path.split('/').length };
  })
  .sort((a, b) => b.segments - a.segments);

/**
 * The operation a recorded request belongs to, by method and path template (query ignored), or
 * undefined for a path neither spec describes.
 *
 * @example
 * ```ts
 * matchOperation('GET', 'http://localhost:27000/rpc/v2/accounts/0x1/transactions?count=5')?.operationId; // 'listTransactionsV2'
 * ```
 */
export function matchOperation(method: string, url: string): Route | undefined {
  let path: string;
  try {
    path = new URL(url, 'http://recorded.invalid').pathname;
  } catch {
    return undefined;
  }
  const m = method.toUpperCase();
  return compiled.find((c) => c.method === m && c.pattern.test(path))?.route;
}
