import { matchRoute, pathSegments, routes, type Route } from '@x/common';

/** The routes without path parameters, as segments (`/rpc/v3/transactions/estimate_gas_price`). */
const literals = routes.filter((r) => !r.path.includes('{')).map((route) => ({ route, segments: route.path.split('/').slice(1) }));

/**
 * The operation a recorded request belongs to, by method and path template (query ignored), or
 * undefined for a path neither spec describes. The generated route table's one matcher decides (the
 * stubs route by it too), at the end of the path: recordings through a proxy prefix
 * (`/node/rpc/v2/...`), with a server's base path or with a trailing slash still find their operation,
 * the longest template first. Where the template it finds has a parameter that took a segment which a
 * route without parameters, of as many segments, names literally, that route wins:
 * `/rpc/v3/transactions/estimate_gas_price` is `estimateGasPriceV3`, not `getTransactionV3` with the hash
 * `estimate_gas_price` (`matchRoute` takes the first template of a length in table order).
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
  const match = matchRoute(path, { method, suffix: true });
  if (match === undefined || Object.keys(match.params).length === 0) return match?.route;
  const segments = pathSegments(path);
  if (segments === undefined) return match.route;
  if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  const length = match.route.path.split('/').length - 1;
  const tail = segments.slice(segments.length - length);
  const upper = method.toUpperCase();
  const literal = literals.find((l) => l.route.method === upper && l.segments.length === length && l.segments.every((s, i) => s === tail[i]));
  return literal?.route ?? match.route;
}
