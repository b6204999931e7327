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
