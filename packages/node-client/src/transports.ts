import { ChainIdMismatchError, checkInteger, createTransport, HistoryPrunedError, HttpError, type Service, type Transport, type TransportOptions } from '@x/client-core';
import { type HttpErrorInit } from '@x/client-core/internal';
import { NODE_RPC_API_PATHS, NODE_RPC_BASE_URL } from '@x/common';
import { normalizeAddress } from './address.js';
import { nodeErrorMessage } from './error-message.js';
import { supraRetryIn } from './retry-in.js';
import { u64Header } from './page-info.js';

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

/**
 * Supra's error answers: the message (Rust's `Some("...")` unwrapped), the wait a 429 or 503 names in
 * it (`try again in 1.5s`), and a 410's oldest block.
 */
function failure(init: HttpErrorInit): HttpError {
  // The transport's own message (a redirect it did not follow) wins over the body's.
  const read: HttpErrorInit = { message: nodeErrorMessage(init.body), ...init };
  if (read.status === 429 || read.status === 503) read.retryAfterMs ??= supraRetryIn(read.body);
  // One construction per line: an uncaught error's source line is its own class's.
  if (read.status === 410) return new HistoryPrunedError({ ...read, oldestBlock: u64Header(read.headers as Headers, 'x-supra-oldest-block') });
  return new HttpError(read);
}

/** Every address the node is sent in its canonical form (see `normalizeAddress`). */
function canonical(args: Record<string, unknown>): void {
  if (args.address !== undefined) args.address = normalizeAddress(args.address);
}

/** What a node transport knows of Supra nodes, with a `chainId`: the check of every answer's chain. */
export function nodeService(options: NodeOptions): Service {
  const service: Service = { apiPaths: NODE_RPC_API_PATHS, failure, args: canonical };
  if (options.chainId === undefined) return service;
  const expected = checkInteger('chainId', options.chainId, 0, 255);
  return {
    ...service,
    check: (headers, request) => {
      const sent = headers.get('x-supra-chain-id');
      if (sent === null) return undefined;
      const received = /^\s*[0-9]{1,3}\s*$/.test(sent) ? Number(sent) : sent.slice(0, 32);
      return received === expected ? undefined : new ChainIdMismatchError({ expected, received, ...request });
    },
  };
}

/**
 * A transport for one node: timeouts, retries with backoff and `Retry-After`, redirects within the
 * origin only, bounded bodies; every call ends. It carries none of the several-node router's code.
 *
 * @example
 * ```ts
 * import { getAccountV2, http, NODE_URLS } from '@x/node-client';
 * const node = http({ baseUrl: NODE_URLS.testnet, timeoutMs: 5_000 });
 * const account = await getAccountV2(node, '0x1');
 * ```
 */
export function http(options: HttpOptions = {}): Transport {
  return createTransport({ ...options, baseUrl: options.baseUrl ?? NODE_RPC_BASE_URL }, nodeService(options));
}

