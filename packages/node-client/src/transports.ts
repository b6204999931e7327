import {
  baseUrls,
  ChainIdMismatchError,
  checkInteger,
  HistoryPrunedError,
  HttpError,
  InvalidArgumentError,
  nodeRouting,
  parseBaseUrl,
  startParam,
  Transport,
  U64_FORMATS,
  type OperationSpec,
  type PagingRule,
  type TransportConfig,
  type TransportOptions,
} from '@x/client-core';
import { NODE_RPC_API_PATHS, NODE_RPC_BASE_URL, readU64 } from '@x/common';
import { normalizeAddress } from './address.js';
import { nodeErrorMessage } from './error-message.js';
import { supraRetryIn } from './retry-in.js';
import { u64Header, withInfo } from './page-info.js';
import type { Caller } from './types.js';

/**
 * What a node transport knows of Supra nodes: u64 parameters, its "try again in" message, its error
 * bodies, its paths, and a 410's oldest block.
 */
const NODE: TransportConfig = {
  formats: U64_FORMATS,
  answer: cursorPage,
  retryAfterFromBody: supraRetryIn,
  messageOf: nodeErrorMessage,
  apiPaths: NODE_RPC_API_PATHS,
  httpError: (init) => (init.status === 410 ? new HistoryPrunedError({ ...init, oldestBlock: oldestBlock(init.headers) }) : new HttpError(init)),
};

/**
 * The answer of a listing whose next cursor is a response header (v3's `x-supra-cursor`): its items (at
 * the paging rule's pointer) with that header, `undefined` when empty or absent (no next page), so a
 * caller and a walk get both from one call; any other body as it is.
 */
function cursorPage(body: unknown, headers: Headers, op: OperationSpec): unknown {
  const { paging } = op;
  if (paging?.next.from !== 'header') return withInfo(body, headers);
  // Followed here without `pointerValue`, which would bring the paging module into every one-action
  // bundle: a body without the items answers `undefined` items, which the walk reports as a shape error.
  let items = body;
  for (const key of paging.items) items = typeof items === 'object' && items !== null ? (items as Record<string, unknown>)[key] : undefined;
  return withInfo({ items, cursor: headers.get(paging.next.name) || undefined }, headers);
}

/** A 410's `x-supra-oldest-block`, a u64 in decimal; anything else is not a height. */
function oldestBlock(headers: unknown): bigint | undefined {
  return headers instanceof Headers ? u64Header(headers, 'x-supra-oldest-block') : undefined;
}

/** The options only node transports take. */
export type NodeOptions = {
  /**
   * The chain the nodes must serve (mainnet 8, testnet 6; `NETWORKS` carries both): an answer whose
   * `x-supra-chain-id` header names another is refused with `ChainIdMismatchError` before its body is
   * read, and with several nodes the call moves on. An answer without the header (a proxy's own 404) is
   * not refused.
   */
  chainId?: number | undefined;
};

/** Options of {@link http}: one node. */
export type HttpOptions = Omit<TransportOptions, 'baseUrl' | 'rateLimit' | 'hedgeAfterMs' | 'onAttempt'> &
  NodeOptions & {
    /** The node's base URL, an `http:` or `https:` URL (default: the spec's first server). */
    baseUrl?: string | undefined;
  };

/** Options of {@link fallback}: several nodes in order of preference, a rate limit, hedging, an attempt hook. */
export type FallbackOptions = TransportOptions & NodeOptions;

/** The node configuration for these options: with a `chainId`, the check of every answer's chain. */
function nodeConfig(options: NodeOptions): TransportConfig {
  if (options.chainId === undefined) return NODE;
  const expected = checkInteger('chainId', options.chainId, 0, 255);
  return {
    ...NODE,
    checkAnswer: (headers, request) => {
      const sent = headers.get('x-supra-chain-id');
      if (sent === null) return undefined;
      const received = /^\s*[0-9]{1,3}\s*$/.test(sent) ? Number(sent) : sent.slice(0, 32);
      return received === expected ? undefined : new ChainIdMismatchError({ expected, received, ...request });
    },
  };
}

/** Refuses `args` whose second parameter of `names` is below its first; values that are no u64 are left to the transport's checks. */
function checkOrdered([low, high]: readonly [string, string], args: Record<string, unknown>): void {
  const a = readU64(args[low]);
  const b = readU64(args[high]);
  if (a !== undefined && b !== undefined && b < a) throw new InvalidArgumentError(high, `must not be below ${low} (${a}), got ${b}`);
}

/**
 * A transport over `t`: every address the node is sent in its canonical form (see `normalizeAddress`),
 * and a v1 cursor given as its u8 bytes sent as the hex the node takes back.
 */
function caller(t: Transport<object>, urls: readonly string[]): Caller {
  return {
    // `args` is the action's own object, so it is changed in place.
    call: (operationId, op, args, options, affinity) => {
      try {
        if (args.address !== undefined) args.address = normalizeAddress(args.address);
        const { exclusive, ordered, paging } = op as { exclusive?: readonly string[]; ordered?: readonly [string, string]; paging?: PagingRule };
        // Parameters the operation takes one of (v3 automated transactions: `cursor` or `block_height`).
        if (exclusive) {
          const given = exclusive.filter((name) => args[name] !== undefined);
          if (given.length > 1) throw new InvalidArgumentError(given[1]!, `cannot be combined with ${given[0]}: give one of ${exclusive.join(', ')}`);
        }
        // A range whose end is below its start (events' heights) would answer nothing, as if there were nothing.
        if (ordered) checkOrdered(ordered, args);
        if (Array.isArray(args.start) && paging) args.start = startParam(paging, args.start);
      } catch (err) {
        return Promise.reject(err); // as the transport reports a bad argument
      }
      return t.call(operationId, op, args, options, affinity);
    },
    baseUrls: Object.freeze(urls),
  };
}

/**
 * A transport for one node: timeouts, retries with backoff and `Retry-After`, redirects within the
 * origin only, bounded bodies; every call ends. It carries none of the multi-node router's code.
 *
 * @example
 * ```ts
 * import { getAccountV2, http, NODE_URLS } from '@x/node-client';
 * const node = http({ baseUrl: NODE_URLS.testnet, timeoutMs: 5_000 });
 * const account = await getAccountV2(node, '0x1');
 * ```
 */
export function http(options: HttpOptions = {}): Caller {
  // One URL, normalised as `baseUrls` normalises each (no trailing slash); a list is fallback's.
  const url = parseBaseUrl(options.baseUrl ?? NODE_RPC_BASE_URL, NODE_RPC_API_PATHS).href.replace(/\/+$/, '');
  return caller(new Transport({ ...options, baseUrl: url }, nodeConfig(options)), [url]);
}

/**
 * A transport over several nodes, in order of preference: a node that fails (network error, timeout,
 * 408, 429, 5xx, a body that is not JSON, too large or refused by the validator) moves the call on and
 * rests; a walk's pages stay on one node while it answers. Also the home of a client-side rate limit,
 * hedging (`hedgeAfterMs`) and the `onAttempt` hook, with one node or several.
 *
 * @example
 * ```ts
 * import { fallback, NODE_URLS, walkTransactionsV2 } from '@x/node-client';
 * const nodes = fallback({ baseUrl: [NODE_URLS.mainnet, 'https://rpc-wallet-mainnet.supra.com'], rateLimit: { requestsPerSecond: 10 } });
 * for await (const tx of walkTransactionsV2(nodes, '0x1', { concurrency: 4 })) console.log(tx.hash);
 * ```
 */
export function fallback(options: FallbackOptions = {}): Caller {
  const urls = baseUrls(options.baseUrl ?? NODE_RPC_BASE_URL, NODE_RPC_API_PATHS);
  // One node goes as a string: with no limit, hedge or hook, calls then take the direct path.
  return caller(new Transport({ ...options, baseUrl: urls.length === 1 ? urls[0]! : urls }, { ...nodeConfig(options), routing: nodeRouting }), urls);
}
