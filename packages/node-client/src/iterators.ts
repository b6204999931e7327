import { operations } from './generated/operations.js';
import { paging, type PagedOperationId } from '@x/common';
import { checkParam, startParam, U64_FORMATS, type CallOptions, type NodeAffinity, type PageStart } from '@x/client-core';
import type { AccountIterators } from './api.js';
import { maxCount, walk, type Listing } from './walk.js';


/** The caller's `start` as the walk carries it: a u64 as a bigint, a cursor as the text sent back, both checked as the operation checks them. */
function firstStart(id: PagedOperationId, value: unknown): PageStart | undefined {
  const spec = operations[id].params.find((p) => p.name === 'start')!;
  if (paging[id].next.encoding === 'u64') return BigInt(checkParam(spec, value ?? 0, U64_FORMATS)!);
  const start = startParam(paging[id], value);
  return start === undefined ? undefined : (checkParam(spec, start, U64_FORMATS) as string);
}

type ListName = 'listTransactions' | 'listCoinTransactions' | 'listModules' | 'listResources';

/** The listings of one version, each called with a page's options and the walk's node affinity. */
export type Lists = Record<ListName, (address: string, options: (CallOptions & { count?: number; start?: unknown }) | undefined, affinity?: NodeAffinity) => Promise<unknown>>;

/** Iterators of one version: each walks its list operation as the generated paging table says. */
export function iterators<V extends 'V1' | 'V2'>(v: V, lists: Lists): AccountIterators<V> {
  const iterate =
    (name: ListName) =>
    (address: string, o: Parameters<typeof walk>[2] = {}): AsyncGenerator<unknown, void, undefined> => {
      const operationId = `${name}${v}` as PagedOperationId;
      const call = lists[name];
      // The pages of one walk come from one node while it answers (a client with several nodes).
      const affinity: NodeAffinity = {};
      const listing: Listing = {
        operationId,
        rule: paging[operationId],
        maxPageSize: maxCount(operationId),
        fetchPage: (start, count, signal) => call(address, { count, start, signal }, affinity),
      };
      return walk(listing, () => firstStart(operationId, o.start), o);
    };
  // The pages are walked untyped; the item types are the public signature's (AccountIterators).
  return {
    transactions: iterate('listTransactions'),
    coinTransactions: iterate('listCoinTransactions'),
    modules: iterate('listModules'),
    resources: iterate('listResources'),
  } as unknown as AccountIterators<V>;
}
