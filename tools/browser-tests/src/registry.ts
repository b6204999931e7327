/**
 * The stubs the global setup started, shared with the browser commands of the config. Both run in
 * vitest's main process but may be loaded as separate module instances, hence a global.
 */
import type { StubHandle } from '@x/testing';

export type StubName = 'node' | 'price';

export type StubRegistry = { handles: Record<StubName, StubHandle> };

const KEY = Symbol.for('@x-tools/browser-tests:stubs');

export function stubRegistry(): StubRegistry {
  const registry = (globalThis as { [KEY]?: StubRegistry })[KEY];
  if (registry === undefined) throw new Error('the browser tests global setup has not started the stubs');
  return registry;
}

export function setStubRegistry(registry: StubRegistry | undefined): void {
  (globalThis as { [KEY]?: StubRegistry })[KEY] = registry;
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    /** What a stub received, in order (preflights included). */
    stubRequests: (name: StubName) => Promise<Array<{ method: string; url: string; headers: Record<string, string | string[] | undefined> }>>;
    /** Empties a stub's request log and its fault counters. */
    resetStub: (name: StubName) => Promise<void>;
    /** Queues a fault on a stub (`failNext`), e.g. a redirect with `{ redirectTo }`. */
    failNext: (name: StubName, operationId: string, kind: number | string, times?: number, options?: Record<string, string>) => Promise<void>;
  }
}
