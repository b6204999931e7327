/**
 * What every generated query option shares (`getAccountV3QueryOptions` and the others): the option
 * object, and the key's values in JSON-safe form. Small on purpose: one query option bundles its action,
 * its operation's entry and this module, nothing of the other operations.
 */
import { bigintAsText } from '@x/client-core';
import { bytesToHex } from '@x/client-core/internal';
import type { Caller } from './types.js';
import { NODE_QUERY_SCOPE } from './query-types.js';

/**
 * What a query option takes as its first argument: a transport (`http(...)`, `fallback(...)`) or a
 * client of `createNodeClient` (its `transport`). Its `baseUrls` go into the key, so that two nodes
 * never share a cache entry.
 *
 * @example
 * ```ts
 * import { http } from '@x/node-client';
 * const node: NodeQueryClient = http({ baseUrl: 'http://127.0.0.1:27000' });
 * ```
 */
export type NodeQueryClient = Caller | { readonly transport: Caller; readonly baseUrls: readonly string[] };

/**
 * The option object of one query: key `[scope, base URLs, operation id, key]`, a query function that
 * passes TanStack's `signal` to the action (a cancelled query aborts its request), and `retry: false`
 * (the client retries what is worth retrying already).
 */
export function queryOptions<Options>(client: NodeQueryClient, id: string, key: Readonly<Record<string, unknown>>, run: (caller: Caller, signal: AbortSignal) => Promise<unknown>): Options {
  const caller = 'call' in client ? client : client.transport;
  // The key's data tag exists in types only: `Options` is the generated function's declared return type.
  return { queryKey: [NODE_QUERY_SCOPE, client.baseUrls, id, key], queryFn: ({ signal }: { signal: AbortSignal }) => run(caller, signal), retry: false } as never;
}

/** A u64 as decimal text (bigint and safe integers), so `10`, `10n` and `'10'` are one key; anything else unchanged. */
export function u64Text(value: unknown): unknown {
  return typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value)) ? String(value) : value;
}

/** A v1 byte cursor as the hex the listing takes back, so bytes and their hex are one key; anything else unchanged (the call reports it). */
export function bytesKey(value: unknown): unknown {
  return Array.isArray(value) && value.every((b) => Number.isInteger(b) && b >= 0 && b <= 255) ? bytesToHex(value as number[]) : value;
}

/** A request body as a key holds it: plain JSON (a bigint argument as its decimal string), which TanStack hashes. */
export function bodyKey(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value, bigintAsText) ?? 'null');
  } catch {
    return value; // refused by the call itself, with the parameter named
  }
}
