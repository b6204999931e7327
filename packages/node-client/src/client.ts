import type { paths } from '@x/node-types';
import { DEFAULT_BASE_URL, operations, type OperationId } from './generated/operations.js';
import { baseUrls, nodeRouting, startParam, Transport, type CallOptions, type NodeAffinity, U64_FORMATS } from '@x/client-core';
import { normalizeAddress } from './address.js';
import { iterators, type Lists } from './iterators.js';
import { paging } from '@x/common';
import { nodeErrorMessage } from './error-message.js';
import { supraRetryIn } from './retry-in.js';
import type { AccountApi, NodeClient, NodeClientOptions, NodeV1Api } from './api.js';

export type { AccountApi, AccountIterators, ListCursor, ListOptions, NodeClient, NodeClientOptions, NodeV1Api, NodeV2Api, ResponseBody, U64Input, WalkOrder } from './api.js';

/** The paths this client appends to a base URL (`/rpc/v1`, `/rpc/v2`), from the operation table. */
const API_PATHS = [...new Set(Object.values(operations).map((op) => op.path.split('/').slice(0, 3).join('/')))];

/**
 * Creates a client for the account operations of a Supra node.
 *
 * @example
 * ```ts
 * import { createNodeClient } from '@x/node-client';
 * const node = createNodeClient({ baseUrl: 'http://localhost:27000' });
 * const account = await node.v2.getAccount('0x1');
 * // Several nodes, in order of preference: a node down, slow or rate-limiting moves the call on.
 * const resilient = createNodeClient({ baseUrl: [NODE_URLS.mainnet, 'https://rpc-wallet-mainnet.supra.com'], rateLimit: { requestsPerSecond: 10 } });
 * const page = await node.v2.listTransactions('0x1', { count: 50, start: 10 });
 * ```
 */
export function createNodeClient(options: NodeClientOptions = {}): NodeClient {
  const urls = baseUrls(options.baseUrl ?? DEFAULT_BASE_URL, API_PATHS);
  // One node goes as a string: with no limit, hedge or hook, calls then take the direct path.
  const transport = new Transport<paths>(
    { ...options, baseUrl: urls.length === 1 ? urls[0]! : urls },
    { formats: U64_FORMATS, routing: nodeRouting, retryAfterFromBody: supraRetryIn, messageOf: nodeErrorMessage, apiPaths: API_PATHS },
  );
  /**
   * The caller of one operation. Not async (a layer fewer): nothing here throws, and `transport.call`
   * reports bad arguments as rejections. `args` is the call's own object, so the address is normalised in place.
   */
  const operation = (id: OperationId) => {
    const op = operations[id];
    return (args: Record<string, unknown>, callOptions?: CallOptions, affinity?: NodeAffinity): Promise<never> => {
      args.address = normalizeAddress(args.address);
      return transport.call(id, op, args, callOptions, affinity) as Promise<never>;
    };
  };
  /** Each listing of a version, with the node affinity of a walk's pages (see `NodeAffinity`). */
  const lists = <V extends 'V1' | 'V2'>(v: V): Lists => {
    const listTransactions = operation(`listTransactions${v}`);
    const listCoinTransactions = operation(`listCoinTransactions${v}`);
    const listModules = operation(`listModules${v}`);
    const listResources = operation(`listResources${v}`);
    return {
      // No default `{}` for the options: an object per call is throughput on loopback (see Transport.call).
      listTransactions: (address, o, affinity) => listTransactions({ address, count: o?.count, start: o?.start }, o, affinity),
      listCoinTransactions: (address, o, affinity) => listCoinTransactions({ address, count: o?.count, start: o?.start }, o, affinity),
      listModules: async (address, o, affinity) => listModules({ address, count: o?.count, start: startParam(paging[`listModules${v}`], o?.start) }, o, affinity),
      listResources: async (address, o, affinity) => listResources({ address, count: o?.count, start: startParam(paging[`listResources${v}`], o?.start) }, o, affinity),
    };
  };
  const api = <V extends 'V1' | 'V2'>(v: V, list: Lists): AccountApi<V> => {
    // Each id built once: an id built per call is a new string to allocate and to look up in
    // `operations`, ~0.3 µs per call in memory, about a tenth of the client's own work.
    const getAccount = operation(`getAccount${v}`);
    const getModule = operation(`getModule${v}`);
    const getResource = operation(`getResource${v}`);
    return {
      getAccount: (address, o) => getAccount({ address }, o),
      // The listings themselves: a call without a walk's affinity is a plain call.
      listTransactions: list.listTransactions,
      listCoinTransactions: list.listCoinTransactions,
      listModules: list.listModules,
      getModule: (address, module_name, o) => getModule({ address, module_name }, o),
      listResources: list.listResources,
      getResource: (address, resource_type, o) => getResource({ address, resource_type }, o),
    } as AccountApi<V>;
  };
  const l1 = lists('V1');
  const l2 = lists('V2');
  return {
    v1: { ...api('V1', l1), ...iterators('V1', l1) } as NodeV1Api,
    v2: { ...api('V2', l2), ...iterators('V2', l2) },
    raw: transport.raw,
    baseUrls: Object.freeze(urls),
  };
}
