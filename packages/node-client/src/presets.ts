/**
 * Public node URLs, as their sources publish them (see the README's "Several nodes" section for each
 * source). Frozen: a preset is a fact, not a setting. The client's default stays the local network node.
 *
 * @example
 * ```ts
 * import { createNodeClient, NODE_URLS } from '@x/node-client';
 * const node = createNodeClient({ baseUrl: NODE_URLS.testnet });
 * ```
 */
export const NODE_URLS = Object.freeze({
  /** A local network node (the node document: port 27000). */
  local: 'http://localhost:27000',
  /** Supra mainnet, chain id 8 (Supra's network-information docs). */
  mainnet: 'https://rpc-mainnet.supra.com',
  /** Supra testnet, chain id 6 (Supra's network-information docs). */
  testnet: 'https://rpc-testnet.supra.com',
} as const);

/**
 * The public networks as client options: a node URL and the chain id its answers must carry, so a client
 * of one network never reads another's by mistake (a testnet URL in a mainnet build, say).
 *
 * @example
 * ```ts
 * import { createNodeClient, NETWORKS } from '@x/node-client';
 * const node = createNodeClient({ ...NETWORKS.mainnet, timeoutMs: 5_000 });
 * ```
 */
export const NETWORKS = Object.freeze({
  /** Supra mainnet: chain id 8. */
  mainnet: Object.freeze({ baseUrl: NODE_URLS.mainnet, chainId: 8 }),
  /** Supra testnet: chain id 6. */
  testnet: Object.freeze({ baseUrl: NODE_URLS.testnet, chainId: 6 }),
} as const);
