/**
 * The browser build of `@x/testing` (the `browser` export condition): everything but the loopback
 * servers, which need `node:http`. Their names stay, so that one import line works in both; calling
 * them in a browser throws and says what to use instead.
 */
import { StubArgumentError } from './errors.ts';
import type { startNodeStub as startNode, startPriceStub as startPrice } from './start.ts';

export * from './shared.ts';

const nodeOnly = (name: string, instead: string): StubArgumentError =>
  new StubArgumentError(name, `needs Node (a loopback server); in a browser use ${instead}, which answers in memory`);

/** Node only: in a browser, use `createNodeStubFetch`. */
export const startNodeStub: typeof startNode = () => Promise.reject(nodeOnly('startNodeStub', 'createNodeStubFetch()'));
/** Node only: in a browser, use `createPriceStubFetch`. */
export const startPriceStub: typeof startPrice = () => Promise.reject(nodeOnly('startPriceStub', 'createPriceStubFetch()'));
