import { matchRoute, type Route } from '@x/common';

/**
 * The operation a recorded request belongs to, by method and path template (query ignored), or
 * undefined for a path neither spec describes. The generated route table's one matcher decides (the
 * stubs route by it too), at the end of the path: recordings through a proxy prefix
 * (`/node/rpc/v2/...`), with a server's base path or with a trailing slash still find their operation,
 * the longest template first, a literal segment preferred over a parameter
 * (`/rpc/v3/transactions/estimate_gas_price` is `estimateGasPriceV3`, not a transaction by hash).
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
  return matchRoute(path, { method, suffix: true })?.route;
}
