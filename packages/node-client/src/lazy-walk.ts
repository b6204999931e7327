import type * as walks from './generated/walks.js';
import type { Walk } from './walk.js';

/** The generated walks (`walkTransactionsV3`, `walkBlocksV3`, ...), a module of their own. */
type Walks = typeof walks;

/**
 * A walk of the generated walks module, loaded with the walk engine on the walk's first `next()` (or its
 * `pages()`'s): what `node.vN`'s walks are, so that a client that never walks does not carry the engine.
 * Options are checked on the first `next()` either way, so a bad one is the same rejection; `return()`
 * and `throw()` reach the walk as they would.
 *
 * @example
 * ```ts
 * const transactions = lazyWalk((w) => w.walkTransactionsV3);
 * for await (const tx of transactions(http(), '0x1', { limit: 10 })) console.log(tx);
 * ```
 */
export function lazyWalk<F extends (...args: never[]) => Walk<unknown>>(pick: (walks: Walks) => F): F {
  return ((...args: Parameters<F>) => {
    let walk: Promise<Walk<unknown>> | undefined;
    const load = (): Promise<Walk<unknown>> => (walk ??= import('./generated/walks.js').then((m) => pick(m)(...args)));
    return Object.assign(
      (async function* () {
        yield* await load();
      })(),
      {
        pages: async function* () {
          yield* (await load()).pages();
        },
      },
    );
  }) as F;
}
