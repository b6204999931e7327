/**
 * What a node says about an answer beside its body: the next cursor, where its kept history starts
 * (`x-supra-oldest-block`) and its chain (`x-supra-chain-id`). Read from the headers of every success
 * answer that carries them, so a walk can tell a pruned node's short history from the whole of it.
 */
import type { HistoryPrunedError } from '@x/client-core';
import { readU64 } from '@x/common';

/** An answer's page metadata (see {@link pageInfo}). */
export type PageInfo = {
  /** The next page's `start` (or `cursor`), where the listing's cursor is a header; `undefined` on the last page. */
  readonly cursor?: string | undefined;
  /** The lowest block height the answering node keeps, from `x-supra-oldest-block`; `undefined` when it did not say. */
  readonly oldestBlock: bigint | undefined;
  /** The chain of the answering node, from `x-supra-chain-id`; `undefined` when it did not say. */
  readonly chainId: number | undefined;
};

// Keyed by the answer itself, so a bare array keeps its type and nothing is kept once the answer is gone.
const INFO = new WeakMap<object, PageInfo>();

/**
 * The metadata of a list call's answer: the oldest block the node keeps, its chain id and, for listings
 * whose cursor is a header, the next cursor; `undefined` for a value no call answered or an answer that
 * carried none of them. A header-cursor listing's page (`CursorPage`) also has them as fields.
 *
 * @example
 * ```ts
 * const page = await node.v3.listTransactions('0x1', { count: 10 });
 * console.log(pageInfo(page)?.oldestBlock); // e.g. 5800n on a pruned node
 * ```
 */
export function pageInfo(answer: unknown): PageInfo | undefined {
  return typeof answer === 'object' && answer !== null ? INFO.get(answer) : undefined;
}

/** A header's u64 values in decimal digits, each with spaces around it allowed (a header sent twice comes joined: "5800, 5800"); none if one is not a u64. */
function u64Values(headers: Headers, name: string): bigint[] | undefined {
  const values = headers.get(name)?.split(',').map((part) => readU64(part.trim()));
  return values?.every((v) => v !== undefined) ? (values as bigint[]) : undefined;
}

/** A u64 header, or none: of a header sent twice, the highest value, so a pruned node stays a pruned node. */
export function u64Header(headers: Headers, name: string): bigint | undefined {
  return u64Values(headers, name)?.reduce((high, n) => (n > high ? n : high));
}

/** The chain id a node's headers name, as a number; values that differ, or one not a safe integer, are none. */
function chainIdOf(headers: Headers): number | undefined {
  const [id, ...more] = u64Values(headers, 'x-supra-chain-id') ?? [];
  return id !== undefined && more.every((v) => v === id) && id <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : undefined;
}

/**
 * Records the headers' metadata for `answer` (an object or array) and answers it. The page of a
 * header-cursor listing (`{ items, cursor }`) gets them as its fields too.
 */
export function withInfo<T>(answer: T, headers: Headers): T {
  if (typeof answer !== 'object' || answer === null) return answer;
  const info: PageInfo = { cursor: (answer as { cursor?: string }).cursor, oldestBlock: u64Header(headers, 'x-supra-oldest-block'), chainId: chainIdOf(headers) };
  if ('cursor' in answer && 'items' in answer) {
    // Only what the node said: a page of a node without the headers stays `{ items, cursor }`.
    if (info.oldestBlock !== undefined) Object.assign(answer, { oldestBlock: info.oldestBlock });
    if (info.chainId !== undefined) Object.assign(answer, { chainId: info.chainId });
  }
  if (info.oldestBlock !== undefined || info.chainId !== undefined || info.cursor !== undefined) INFO.set(answer, info);
  return answer;
}

/**
 * Whether the node that sent `answer` keeps less history than a walk needs: its oldest block is above
 * `floor` (the lowest height the walk's range reaches).
 *
 * @example
 * ```ts
 * prunedAbove(page, 0n); // true for a page of a node that keeps blocks from 5800 only
 * ```
 */
export function prunedAbove(answer: unknown, floor: bigint): boolean {
  const oldest = pageInfo(answer)?.oldestBlock;
  return oldest !== undefined && oldest > floor;
}

/**
 * A page as a walk needs it: asked again (`again`) of another node while `partial` finds it cut short by
 * the history its node has pruned, each node that could not give it left (`leave`). The walks and the
 * infinite queries share it; with no node left, `pruned` is the error to end with, beside the page there is.
 *
 * @example
 * ```ts
 * const { body, pruned } = await untilWhole(first, (b) => prunedAbove(b, 0n), leave, () => fetchPage(start));
 * ```
 */
export async function untilWhole(
  body: unknown,
  partial: (answer: unknown) => boolean,
  leave: (oldestBlock: bigint | undefined) => HistoryPrunedError | undefined,
  again: () => Promise<unknown>,
): Promise<{ body: unknown; pruned: HistoryPrunedError | undefined }> {
  while (partial(body)) {
    const pruned = leave(pageInfo(body)?.oldestBlock);
    if (pruned) return { body, pruned };
    body = await again();
  }
  return { body, pruned: undefined };
}
