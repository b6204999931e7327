/**
 * `@x/testing`: a spec-true local fake of the Supra node RPC (accounts v1/v2/v3 and the reads beyond
 * accounts: blocks, transactions, events, views, tables) and the price-history service, for your own tests. Loopback HTTP servers (`startNodeStub`, `startPriceStub`, Node only) or
 * an in-memory `fetch` (`createNodeStubFetch`, `createPriceStubFetch`, Node and browsers), over a
 * deterministic seeded chain, with faults on demand and either shape (documented or live).
 *
 * @example
 * ```ts
 * import { startNodeStub } from '@x/testing';
 * import { createNodeClient } from '@x/node-client';
 *
 * const stub = await startNodeStub();
 * const node = createNodeClient({ baseUrl: stub.url });
 * const account = await node.v2.getAccount(stub.accounts.alice);
 * await stub.close();
 * ```
 * @packageDocumentation
 * @module @x/testing
 */
export * from './shared.ts';
export { startNodeStub, startPriceStub } from './start.ts';
