import { fallback, http } from './transports.js';
import { versionActions } from './generated/actions.js';
import { waitForTransaction } from './wait.js';
import type { Caller, NodeClient, NodeClientOptions } from './api.js';

/** The actions of a table bound to one transport: `bind(t, v2).getAccount(a)` is `getAccountV2(t, a)`. */
function bind<T extends Record<string, (client: Caller, ...args: never[]) => unknown>>(transport: Caller, table: T): Record<keyof T, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, action] of Object.entries(table)) {
    // Three fixed arguments, not a rest parameter: a rest array per call is a cost on every call.
    out[name] = (a?: never, b?: never, c?: never) => action(transport, a!, b!, c!);
  }
  return out as Record<keyof T, unknown>;
}

/**
 * Creates a client for the account operations of a Supra node: `node.v2.getAccount(address)` and the
 * other operations and walks of each version, bound to one transport. A convenience over the
 * actions (`getAccountV2(transport, address)`) and transports (`http`, `fallback`), which an app that
 * wants the smallest bundle imports directly.
 *
 * @example
 * ```ts
 * import { createNodeClient, NODE_URLS } from '@x/node-client';
 * const node = createNodeClient({ baseUrl: 'http://localhost:27000' });
 * const account = await node.v2.getAccount('0x1');
 * // Several nodes, in order of preference: a node down, slow or rate-limiting moves the call on.
 * const resilient = createNodeClient({ baseUrl: [NODE_URLS.mainnet, 'https://rpc-wallet-mainnet.supra.com'], rateLimit: { requestsPerSecond: 10 } });
 * const page = await node.v2.listTransactions('0x1', { count: 50, start: 10 });
 * ```
 */
export function createNodeClient(options: NodeClientOptions = {}): NodeClient {
  const routed = typeof options.baseUrl === 'object' || options.rateLimit !== undefined || options.hedgeAfterMs !== undefined || options.onAttempt !== undefined;
  const transport = routed ? fallback(options) : http(options as Parameters<typeof http>[0]);
  const client: Record<string, unknown> = { transport, baseUrls: transport.baseUrls, waitForTransaction: (hash: string, o?: never) => waitForTransaction(transport, hash, o) };
  // Every version the spec has (`v1`, `v2`, ...), its actions and walks bound by name.
  for (const [version, table] of Object.entries(versionActions)) client[version] = bind(transport, table);
  return client as NodeClient;
}
