/**
 * The test helpers the packages' tests share, from one place: a stub per test file, a guard against
 * unhandled rejections and open handles, fake time for tests of timing over loopback (fake-time.ts),
 * and small assertions. Each package's `test/helpers.ts` keeps only what is its own (and re-exports
 * what its tests use from here). Everything talks real HTTP; nothing mocks fetch.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { getCurrentSuite } from 'vitest/suite';
import { expectNoOpenHandles } from './open-handles.ts';
import { ClientError, InvalidArgumentError } from '@x/client-core';
import { DEFAULT_PRICE_NOW, startNodeStub, startPriceStub, type NodeStubHandle, type PriceStubHandle } from '@x/testing';

export { FAKED_WITH_LOOPBACK, realPause, useFakeTime, type FakeTime } from './fake-time.ts';
export { expectNoOpenHandles } from './open-handles.ts';

/** The seed of the stubs these helpers start unless told otherwise. */
export const DEFAULT_SEED = 7;

/** The test files whose process guard is registered (a worker runs many files: `isolate: false`). */
const guarded = new WeakSet<object>();

/**
 * Fails the file when a rejection went unhandled during it, or when a TCP socket, server or timer is
 * left open after it. Registers its hooks where it is called: call it before the hooks whose work it
 * checks (vitest runs `afterAll` hooks in reverse order, so its check then runs after their cleanup),
 * as {@link useNodeStub} and {@link usePriceStub} do. Once per file: a second call (a file with both
 * stubs) adds nothing, so the one check runs after every stub of the file has closed.
 */
export function guardProcess(): void {
  // This module is shared by the files a worker runs one after another: once per file, not per module.
  const file = getCurrentSuite().file;
  if (guarded.has(file)) return;
  guarded.add(file);
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown): void => {
    rejections.push(reason);
  };
  beforeAll(() => {
    process.on('unhandledRejection', onRejection);
  });
  afterAll(async () => {
    // Node reports a rejection once the microtask queue drains; hooks may run before that.
    await new Promise((resolve) => setImmediate(resolve));
    process.off('unhandledRejection', onRejection);
    expect(rejections, 'unhandled rejections').toEqual([]);
    await expectNoOpenHandles();
  });
}

/**
 * Starts a node stub (seed `seed`) before the file's tests and closes it after them; empties its
 * request log before each test. After the file: no unhandled rejection happened and no socket, server
 * or timer is left open ({@link guardProcess}).
 */
export function useNodeStub(seed: number = DEFAULT_SEED): { readonly stub: NodeStubHandle } {
  const box = {} as { stub: NodeStubHandle };
  guardProcess();
  beforeAll(async () => {
    box.stub = await startNodeStub({ port: 0, seed });
  });
  beforeEach(() => box.stub.reset());
  afterAll(async () => {
    await box.stub.close();
  });
  return box;
}

/**
 * Starts a price stub (seed {@link DEFAULT_SEED} and the fixed clock `DEFAULT_PRICE_NOW` unless `options`
 * give others) before the file's tests and closes it after them, guarded as {@link useNodeStub} is.
 *
 * The fixed clock is this helper's default, for this repository's tests (deterministic candles and
 * prices); `@x/testing`'s own default is the wall clock. `now: () => Date.now()` asks for the wall clock.
 */
export function usePriceStub(options: Parameters<typeof startPriceStub>[0] = {}): { readonly stub: PriceStubHandle } {
  const box = {} as { stub: PriceStubHandle };
  guardProcess();
  beforeAll(async () => {
    box.stub = await startPriceStub({ port: 0, seed: DEFAULT_SEED, now: () => DEFAULT_PRICE_NOW, ...options });
  });
  afterAll(async () => {
    await box.stub.close();
  });
  return box;
}

/** The rejection of `promise` (fails the test if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );
}

/** Asserts that `promise` rejects with an InvalidArgumentError naming `parameter`. */
export async function expectInvalid(promise: Promise<unknown>, parameter: string): Promise<void> {
  const err: unknown = await promise.then(
    () => expect.fail(`expected an InvalidArgumentError for '${parameter}'`),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidArgumentError);
  expect(err).toBeInstanceOf(ClientError);
  expect((err as InvalidArgumentError).code).toBe('INVALID_ARGUMENT');
  expect((err as InvalidArgumentError).parameter).toBe(parameter);
}

/** The items of an async iterable (or of each member of a union of them). */
export type ItemOf<I> = I extends AsyncIterable<infer T> ? T : never;

/** Drains an async iterable into an array. */
export async function collect<I extends AsyncIterable<unknown>>(items: I): Promise<ItemOf<I>[]> {
  const out: ItemOf<I>[] = [];
  for await (const item of items) out.push(item as ItemOf<I>);
  return out;
}

/**
 * The best time, in ms, of `runs` calls of `f`, each repeated until it takes a measurable while: for
 * tests that compare a reader's time on a short and a long input (linear time), never with a constant.
 */
export function bestTime(f: () => unknown, runs = 5): number {
  let repeat = 1;
  for (let t0 = performance.now(); performance.now() - t0 < 2 && repeat < 1e6; repeat *= 2) {
    const s = performance.now();
    for (let i = 0; i < repeat; i++) f();
    if (performance.now() - s > 2) break;
  }
  let min = Infinity;
  for (let r = 0; r < runs; r++) {
    const s = performance.now();
    for (let i = 0; i < repeat; i++) f();
    min = Math.min(min, (performance.now() - s) / repeat);
  }
  return min;
}
