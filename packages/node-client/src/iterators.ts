import { operations, type OperationId } from './generated/operations.js';
import { checkParam } from '@x/client-core';
import { U64_FORMATS } from '@x/client-core';
import type { AccountApi, AccountIterators, U64Input } from './client.js';
import { bytesToHex, listStart, paginate } from './paginate.js';

const maxCount = (id: OperationId): number => {
  const count = operations[id].params.find((p) => p.name === 'count')?.schema as { maximum?: number } | undefined;
  return count?.maximum ?? 100;
};

type Row = { header?: { sequence_number?: unknown } };
// Strictly increasing: a u64 cursor or sequence number that does not move forward ends the walk.
const ascending = (next: bigint, previous: bigint): boolean => next > previous;
type V1ListPage = { Modules?: { modules: unknown[]; cursor?: number[] | null }; Resources?: { resource: unknown[]; cursor?: number[] | null } };

/** The `start` of an iterator as a bigint, checked like the operation's own `start`. */
function firstStart(id: OperationId, value: U64Input | undefined): bigint {
  const spec = operations[id].params.find((p) => p.name === 'start')!;
  return BigInt(checkParam(spec, value ?? 0, U64_FORMATS)!);
}

/** A u64 the server sent as a JSON number, or undefined when it is not one (which ends a walk). */
function u64Of(value: unknown): bigint | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? BigInt(value) : undefined;
}

/** Iterators of one version, built on its list operations. */
export function iterators<V extends 'V1' | 'V2'>(v: V, api: AccountApi<'V1' | 'V2'>): AccountIterators<V> {
  // The pages are walked untyped; the item types are the public signature's (AccountIterators).
  const it = {
    transactions: (address, o = {}) =>
      paginate<unknown, bigint>(
        async (start, count) => {
          const { record } = (await api.listTransactions(address, { ...o, count, start })) as { record: Row[] };
          const last = u64Of(record.at(-1)?.header?.sequence_number);
          // A short page is the last one; otherwise continue after the last sequence number.
          return { items: record, next: record.length < count || last === undefined ? undefined : last + 1n };
        },
        () => firstStart(`listTransactions${v}`, o.start),
        o,
        maxCount(`listTransactions${v}`),
        ascending,
      ),
    coinTransactions: (address, o = {}) =>
      paginate<unknown, bigint>(
        async (start, count) => {
          const page = (await api.listCoinTransactions(address, { ...o, count, start })) as { record: unknown[]; cursor: unknown };
          const cursor = u64Of(page.cursor);
          // The walk follows the returned cursor; a zero (or missing) one has nowhere to go.
          return { items: page.record, next: cursor === 0n ? undefined : cursor };
        },
        () => firstStart(`listCoinTransactions${v}`, o.start),
        o,
        maxCount(`listCoinTransactions${v}`),
        ascending,
      ),
    modules: (address, o = {}) =>
      paginate<unknown, string>(
        async (start, count) => {
          const page = await api.listModules(address, { ...o, count, start });
          return v === 'V1' ? v1Page((page as V1ListPage).Modules, 'modules') : v2Page(page as Record<string, unknown>, 'modules');
        },
        () => listStart(v, o.start) as string | undefined,
        o,
        maxCount(`listModules${v}`),
      ),
    resources: (address, o = {}) =>
      paginate<unknown, string>(
        async (start, count) => {
          const page = await api.listResources(address, { ...o, count, start });
          return v === 'V1' ? v1Page((page as V1ListPage).Resources, 'resource') : v2Page(page as Record<string, unknown>, 'resources');
        },
        () => listStart(v, o.start) as string | undefined,
        o,
        maxCount(`listResources${v}`),
      ),
  } as AccountIterators<'V1' | 'V2'>;
  return it as AccountIterators<V>;
}

/** A v1 MoveList page: the cursor's bytes go back as lowercase hex; null or empty ends the walk. */
function v1Page(list: { cursor?: number[] | null } & Record<string, unknown> | undefined, key: string): { items: unknown[]; next: string | undefined } {
  const items = (list?.[key] as unknown[] | undefined) ?? [];
  const cursor = list?.cursor;
  return { items, next: cursor && cursor.length > 0 ? bytesToHex(cursor) : undefined };
}

/** A v2 page: the cursor goes back as given; null or empty ends the walk. */
function v2Page(page: Record<string, unknown>, key: string): { items: unknown[]; next: string | undefined } {
  const items = (page[key] as unknown[] | undefined) ?? [];
  return { items, next: typeof page.cursor === 'string' && page.cursor !== '' ? page.cursor : undefined };
}
