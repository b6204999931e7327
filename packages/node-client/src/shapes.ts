/**
 * Read the common meaning of a node record from either of its forms: the one the API document gives,
 * and the one live nodes are observed to send (`specs/node-rpc.live-overlay.yaml`). The record types
 * of `@x/node-types` are the union of both, so TypeScript makes a caller handle both; these functions
 * do it once.
 *
 * They live in `@x/node-client` (subpath `@x/node-client/shapes`) rather than in `@x/node-types`, which
 * is types only and ships no JavaScript; as a subpath they add nothing to an app that does not import
 * them. They take any value of the record's type, whichever client, fetch or validator produced it.
 *
 * A record a function cannot read (neither form, or a value out of range) came from a server, so it
 * throws a `ResponseShapeError` whose `path` is the JSON pointer of that value inside the argument and
 * whose `operationId` names the function; a bad argument of the caller's own (a decimals count, an
 * address) is an `InvalidArgumentError`.
 *
 * @example
 * ```ts
 * import { createNodeClient } from '@x/node-client';
 * import { eventSequenceNumber, senderAddress, timestampDate } from '@x/node-client/shapes';
 * const [tx] = (await createNodeClient().v2.listTransactions('0x1', { count: 1 })).record;
 * if (tx) console.log(senderAddress(tx.header.sender), tx.block_header && timestampDate(tx.block_header.timestamp));
 * ```
 * @module @x/node-client/shapes
 */
import type { Event, MoveModule, SmrTimestamp, SmrTransactionHeader } from '@x/node-types';
import { guidOf, isObject, shapeError, u64, type EventGuid } from './shape-read.js';

export * from './wallet.js';
export { entryFunction, transactionEvents } from './transaction-read.js';
export type { EntryFunctionCall } from './transaction-read.js';
export { gasUsed, transactionOutcome } from './transaction-outcome.js';
export { moveValueJson } from './move-value.js';
export type { MoveJson } from './move-value.js';
export type { OutputKind, TransactionOutcome } from './transaction-outcome.js';

/** A function of a module ABI, as live nodes describe it. */
export type AbiFunction = Extract<MoveModule['exposed_functions'], readonly unknown[]>[number];
/** A struct of a module ABI, as live nodes describe it. */
export type AbiStruct = Extract<MoveModule['structs'], readonly unknown[]>[number];

// Declared beside the reader that builds it, which the readers here import.
export type { EventGuid } from './shape-read.js';

/**
 * Microseconds since the Unix epoch of an `SmrTimestamp`, either form: `{ timestamp }` (documented) or
 * `{ microseconds_since_unix_epoch, utc_date_time }` (live). Throws a `ResponseShapeError` for a value
 * of neither form.
 *
 * @example
 * ```ts
 * timestampMicros({ timestamp: 1734471953424357 });                          // 1734471953424357
 * timestampMicros({ microseconds_since_unix_epoch: 1734471953424357, utc_date_time: '2024-12-17T21:45:53.424357+00:00' });
 * ```
 */
export function timestampMicros(timestamp: SmrTimestamp): number {
  const value: unknown = timestamp;
  const micros = isObject(value)
    ? 'microseconds_since_unix_epoch' in value
      ? value.microseconds_since_unix_epoch
      : value.timestamp
    : undefined;
  if (typeof micros !== 'number' || !Number.isSafeInteger(micros) || micros < 0) {
    throw shapeError('timestampMicros', '', '{ timestamp } or { microseconds_since_unix_epoch, utc_date_time } with a safe integer', value);
  }
  return micros;
}

/**
 * The instant of an `SmrTimestamp`, either form, as a `Date` (millisecond precision: the microseconds
 * are truncated).
 *
 * @example
 * ```ts
 * timestampDate(tx.block_header.timestamp).toISOString(); // '2024-12-17T21:45:53.424Z'
 * ```
 */
export function timestampDate(timestamp: SmrTimestamp): Date {
  return new Date(Math.floor(timestampMicros(timestamp) / 1000));
}

/**
 * The sender's address of a transaction header, either form: a hex string (documented) or
 * `{ Move: "0x…" }` (live, keyed by VM). Throws a `ResponseShapeError` otherwise.
 *
 * @example
 * ```ts
 * senderAddress(tx.header.sender); // '0xb892…4e80'
 * ```
 */
export function senderAddress(sender: SmrTransactionHeader['sender']): string {
  const value: unknown = sender;
  if (typeof value === 'string') return value;
  if (isObject(value) && typeof value.Move === 'string' && Object.keys(value).length === 1) return value.Move;
  throw shapeError('senderAddress', '', 'an address string or { Move: address }', value);
}

/**
 * An event's stream identity, either form: `{ creation_number, account_address }` (live), or the
 * documented string when it spells `<address>:<creation number>` (how this SDK's stubs write it; the
 * document gives the string no format, so any other string gives `undefined`). Throws a
 * `ResponseShapeError` (`path` `/guid`) for a value of neither form.
 *
 * @example
 * ```ts
 * eventGuid(event); // { accountAddress: '0xb892…4e80', creationNumber: 2n }
 * ```
 */
export function eventGuid(event: Pick<Event, 'guid'>): EventGuid | undefined {
  return guidOf(event.guid, 'eventGuid', '/guid');
}

/**
 * An event's sequence number in its stream, either form (a JSON number, documented; a decimal string,
 * live), exactly, as a bigint. Throws a `ResponseShapeError` (`path` `/sequence_number`) otherwise.
 *
 * @example
 * ```ts
 * eventSequenceNumber({ sequence_number: '11' }); // 11n
 * ```
 */
export function eventSequenceNumber(event: Pick<Event, 'sequence_number'>): bigint {
  return u64(event.sequence_number, 'eventSequenceNumber', '/sequence_number');
}

/** The entries of the documented (free-form object) form that have the live form's `name`. */
function named<T>(value: unknown, reader: string, path: string): T[] {
  if (Array.isArray(value)) return value as T[];
  if (isObject(value)) return Object.values(value).filter((v) => isObject(v) && typeof v.name === 'string') as T[];
  throw shapeError(reader, path, 'an array or an object', value);
}

/**
 * The functions a module exposes, either form: the live array, or the values of the documented object
 * that describe a function by `name` (the document leaves that object's shape open; the stubs key
 * the same descriptions by name). Throws a `ResponseShapeError` (`path` `/exposed_functions`) otherwise.
 *
 * @example
 * ```ts
 * const views = moduleFunctions(abi).filter((f) => f.is_view).map((f) => f.name);
 * ```
 */
export function moduleFunctions(abi: Pick<MoveModule, 'exposed_functions'>): AbiFunction[] {
  return named<AbiFunction>(abi.exposed_functions, 'moduleFunctions', '/exposed_functions');
}

/**
 * The structs of a module, either form (see {@link moduleFunctions}). Throws a `ResponseShapeError`
 * (`path` `/structs`) otherwise.
 *
 * @example
 * ```ts
 * moduleStructs(abi).map((s) => `${s.name} has ${s.abilities.join(', ')}`);
 * ```
 */
export function moduleStructs(abi: Pick<MoveModule, 'structs'>): AbiStruct[] {
  return named<AbiStruct>(abi.structs, 'moduleStructs', '/structs');
}

/**
 * A module's name, either form: a string (live), or the documented object when it is
 * `{ identifier: string }` (how this SDK's stubs write it; the document leaves the object's shape open,
 * so an object of any other form gives `undefined`). Throws a `ResponseShapeError` (`path` `/name`)
 * for a value that is neither a string nor an object.
 *
 * @example
 * ```ts
 * moduleName((await node.v2.getModule('0x1', 'coin')).abi); // 'coin'
 * ```
 */
export function moduleName(abi: Pick<MoveModule, 'name'>): string | undefined {
  const name: unknown = abi.name;
  if (typeof name === 'string') return name;
  if (isObject(name)) return typeof name.identifier === 'string' ? name.identifier : undefined;
  throw shapeError('moduleName', '/name', 'a string or an object', name);
}

/**
 * The modules a module declares as friends, as `<address>::<name>` strings, either form: the live
 * array of strings, or the documented object's keys (the stubs key each friend by that string; the
 * document leaves the object's shape open). Throws a `ResponseShapeError` (`path` `/friends`, or the
 * item's) otherwise.
 *
 * @example
 * ```ts
 * moduleFriends(abi); // ['0x1::genesis']
 * ```
 */
export function moduleFriends(abi: Pick<MoveModule, 'friends'>): string[] {
  const friends: unknown = abi.friends;
  if (isObject(friends)) return Object.keys(friends);
  if (!Array.isArray(friends)) throw shapeError('moduleFriends', '/friends', 'an array of strings or an object', friends);
  friends.forEach((f, i) => {
    if (typeof f !== 'string') throw shapeError('moduleFriends', `/friends/${i}`, 'a string', f);
  });
  return friends as string[];
}
