/**
 * Loopback stub servers of the Supra node RPC (accounts v1/v2) and the price-history service, for demos,
 * client tests and recording. See README.md for the data, the fault headers and every choice made where
 * the API documents are silent.
 */
export { startNodeStub, createNodeRouter, DEFAULT_COUNT, MAX_TRANSACTION_COUNT } from './node/stub.ts';
export type { NodeStubOptions, NodeStubHandle } from './node/stub.ts';
export { STUB_ACCOUNTS, PUBLISHER_MODULES } from './node/accounts.ts';
export type { AccountName, ChainAccountName } from './node/accounts.ts';
export { STUB_ACCOUNT_FACTS } from './node/facts.ts';
export type { AccountFacts } from './node/facts.ts';
export { chainFor, CHAIN_ID, VALIDATOR_COUNT } from './node/chain.ts';
export type { Chain, TxInfo, BlockInfo, AccountState } from './node/chain.ts';
export { canonicalAddress } from './node/move.ts';
export { SHAPES, SHAPES_HEADER, utcDateTime } from './node/live.ts';
export type { Shapes } from './node/live.ts';
export { moduleKeyHex, resourceKeyHex } from './node/resources.ts';

export {
  startPriceStub,
  createPriceRouter,
  DEFAULT_PRICE_API_KEY,
  DEFAULT_PRICE_NOW,
  PRICE_RETENTION_MS,
  DEFAULT_MAX_CANDLES,
  LATEST_PAGE_SIZE,
} from './price/stub.ts';
export type { PriceStubOptions, PriceStubHandle } from './price/stub.ts';
export { PRICE_PAIRS, priceAt, candleAt } from './price/model.ts';

export { FAULT_HEADERS, FAULT_KINDS, DEFAULT_SLOW_DELAY_MS, DEFAULT_RETRY_AFTER, REDIRECT_STATUSES, CORS_ALLOWED_HEADERS } from './http.ts';
export type { StubHandle, RecordedRequest } from './http.ts';
export { startScriptedServer, startSilentServer } from './scripted.ts';
export type { ScriptedServer } from './scripted.ts';
