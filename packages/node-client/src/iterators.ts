import { operations, type OperationId } from './generated/operations.js';
import { bytesToHex, checkParam, ResponseShapeError, U64_FORMATS } from '@x/client-core';
import type { AccountApi, AccountIterators, U64Input } from './client.js';
import { listStart, paginate } from './paginate.js';

const maxCount = (id: OperationId): number => {
  const count = operations[id].params.find((p) => p.name === 'count')?.schema as { maximum?: number } | undefined;
  return count?.maximum ?? 100;
};

type Row = { header?: { sequence_number?: unknown } };
type Body = Record<string, unknown>;
// Strictly increasing: a u64 cursor or sequence number that does not move forward ends the walk.
const ascending = (next: bigint, previous: bigint): boolean => next > previous;

/** The `start` of an iterator as a bigint, checked like the operation's own `start`. */
function firstStart(id: OperationId, value: U64Input | undefined): bigint {
  const spec = operations[id].params.find((p) => p.name === 'start')!;
  return BigInt(checkParam(spec, value ?? 0, U64_FORMATS)!);
}

/** A u64 the server sent as a JSON number, or undefined when it is not one (which ends a walk). */
function u64Of(value: unknown): bigint | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? BigInt(value) : undefined;
}

/**
 * What an iterator reads of a page, checked so that a malformed one (no validator injected) rejects
 * with a ResponseShapeError naming where, never a TypeError from deep inside the walk.
 */
function shape(operationId: string, path: string, expected: string): ResponseShapeError {
  return new ResponseShapeError({ operationId, path, expected });
}
function objectAt(value: unknown, operationId: string, path: string): Body {
  if (typeof value !== 'object' || !value || Array.isArray(value)) throw shape(operationId, path, 'an object');
  return value as Body;
}
function listAt(page: Body, key: string, operationId: string, at: string): unknown[] {
  const list = page[key];
  if (!Array.isArray(list)) throw shape(operationId, `${at}/${key}`, 'an array');
  return list;
}

/** Iterators of one version, built on its list operations. */
export function iterators<V extends 'V1' | 'V2'>(v: V, api: AccountApi<'V1' | 'V2'>): AccountIterators<V> {
  // The pages are walked untyped; the item types are the public signature's (AccountIterators).
  const it = {
    transactions: (address, o = {}) =>
      paginate<unknown, bigint>(
        async (start, count) => {
          const id = `listTransactions${v}`;
          const record = listAt(objectAt(await api.listTransactions(address, { ...o, count, start }), id, ''), 'record', id, '') as Row[];
          // A short page is the last one; otherwise continue after the last sequence number.
          if (record.length < count) return { items: record, next: undefined };
          const last = u64Of(record.at(-1)?.header?.sequence_number);
          if (last === undefined) throw shape(id, `/record/${record.length - 1}/header/sequence_number`, 'a u64');
          return { items: record, next: last + 1n };
        },
        () => firstStart(`listTransactions${v}`, o.start),
        o,
        maxCount(`listTransactions${v}`),
        ascending,
      ),
    coinTransactions: (address, o = {}) =>
      paginate<unknown, bigint>(
        async (start, count) => {
          const id = `listCoinTransactions${v}`;
          const page = objectAt(await api.listCoinTransactions(address, { ...o, count, start }), id, '');
          const record = listAt(page, 'record', id, '');
          const cursor = u64Of(page.cursor);
          if (cursor === undefined && page.cursor != null) throw shape(id, '/cursor', 'a u64');
          // The walk follows the returned cursor; a zero (or missing) one has nowhere to go.
          return { items: record, next: cursor === 0n ? undefined : cursor };
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
          return v === 'V1' ? v1Page(page, 'Modules', 'modules', 'listModulesV1') : v2Page(page, 'modules', 'listModulesV2');
        },
        () => listStart(v, o.start) as string | undefined,
        o,
        maxCount(`listModules${v}`),
      ),
    resources: (address, o = {}) =>
      paginate<unknown, string>(
        async (start, count) => {
          const page = await api.listResources(address, { ...o, count, start });
          return v === 'V1' ? v1Page(page, 'Resources', 'resource', 'listResourcesV1') : v2Page(page, 'resources', 'listResourcesV2');
        },
        () => listStart(v, o.start) as string | undefined,
        o,
        maxCount(`listResources${v}`),
      ),
  } as AccountIterators<'V1' | 'V2'>;
  return it as AccountIterators<V>;
}

/**
 * A v1 MoveList page (`null` where v1 has nothing: the walk ends): the cursor's bytes go back as
 * lowercase hex (a cursor already in hex, as live nodes send it, as it is); null or empty ends the walk.
 */
function v1Page(page: unknown, variant: string, key: string, id: string): { items: unknown[]; next: string | undefined } {
  if (page === null) return { items: [], next: undefined };
  const list = objectAt(objectAt(page, id, '')[variant], id, `/${variant}`);
  const items = listAt(list, key, id, `/${variant}`);
  const cursor = list.cursor;
  if (cursor == null || cursor === '' || (Array.isArray(cursor) && cursor.length === 0)) return { items, next: undefined };
  if (typeof cursor === 'string') return { items, next: cursor };
  if (Array.isArray(cursor)) return { items, next: bytesToHex(cursor as number[]) };
  throw shape(id, `/${variant}/cursor`, 'null or an array of u8');
}

/** A v2 page: the cursor goes back as given; null or empty ends the walk. */
function v2Page(page: unknown, key: string, id: string): { items: unknown[]; next: string | undefined } {
  const body = objectAt(page, id, '');
  const items = listAt(body, key, id, '');
  const cursor = body.cursor;
  if (cursor != null && typeof cursor !== 'string') throw shape(id, '/cursor', 'a string or null');
  return { items, next: typeof cursor === 'string' && cursor !== '' ? cursor : undefined };
}
