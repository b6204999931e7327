/**
 * Everything of `@x/testing` that runs anywhere (Node and browsers): the in-memory stubs, the seeded
 * accounts, the fault protocol and the types. `index.ts` adds the loopback servers for Node.
 */
export { createNodeStubFetch, DEFAULT_CHAIN_ID, DEFAULT_COUNT, MAX_TRANSACTION_COUNT, NODE_STUB_URL } from './node/stub.ts';
export { fungibleStoreAddress } from './node/stores.ts';
export type { NodeStubOptions, NodeStubInfo, NodeStubHandle, NodeStubFetch } from './node/stub.ts';
export type { NodeStream } from './node/ws-feed.ts';
export { STUB_ACCOUNTS, PUBLISHER_MODULES } from './node/accounts.ts';
export type { AccountSpec, TransactionSpec, FunctionSpec, StructSpec } from './node/user-accounts.ts';
export type { AccountName, ChainAccountName } from './node/accounts.ts';
export { STUB_ACCOUNT_FACTS } from './node/facts.ts';
export type { AccountFacts } from './node/facts.ts';
export { VALIDATOR_COUNT } from './node/chain.ts';
export { canonicalAddress } from '@x/common';
export { SHAPES, SHAPES_HEADER } from './node/live.ts';
export type { Shapes } from './node/live.ts';
export { moduleKeyHex, resourceKeyHex } from './node/resources.ts';

export {
  createPriceStubFetch,
  DEFAULT_PRICE_API_KEY,
  DEFAULT_PRICE_NOW,
  PRICE_RETENTION_MS,
  DEFAULT_MAX_CANDLES,
  LATEST_PAGE_SIZE,
  PRICE_STUB_URL,
} from './price/stub.ts';
export type { PriceStubOptions, PriceStubInfo, PriceStubHandle, PriceStubFetch } from './price/stub.ts';
export { PRICE_PAIRS } from './price/model.ts';
export { DEFAULT_FEED_TICK_MS, PRICE_FEED_CHANNEL } from './price/ws-feed.ts';
export type { PriceFeedControls, PriceFeedFault, PriceFeedSubscription, PriceFeedTick } from './price/ws-feed.ts';

export { FAULT_HEADERS, FAULT_KINDS, DEFAULT_SLOW_DELAY_MS, DEFAULT_RETRY_AFTER, REDIRECT_STATUSES } from './faults.ts';
export type { FaultKind, FaultSpec, FaultOptions } from './faults.ts';
export { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, DEFAULT_REQUEST_LOG_SIZE, MAX_REQUEST_BODY_BYTES } from './engine.ts';
export { VIEW_FUNCTIONS } from './node/view-functions.ts';
export type { RecordedRequest } from './engine.ts';
export type { StubControls, StubHandle, StubFetch, NodeOperationId, PriceOperationId } from './handles.ts';
export type { StubFetchOptions, FetchFunction } from './fetch.ts';
export type { ListenOptions } from './listen-options.ts';
export { StubArgumentError } from './errors.ts';
