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
 * @example
 * ```ts
 * import { createNodeClient } from '@x/node-client';
 * import { eventSequenceNumber, senderAddress, timestampDate } from '@x/node-client/shapes';
 * const [tx] = (await createNodeClient().v2.listTransactions('0x1', { count: 1 })).record;
 * if (tx) console.log(senderAddress(tx.header.sender), tx.block_header && timestampDate(tx.block_header.timestamp));
 * ```
 * @module @x/node-client/shapes
 */
import { InvalidArgumentError } from '@x/client-core';
import type { Event, MoveModule, SmrTimestamp, SmrTransactionHeader } from '@x/node-types';

/** A function of a module ABI, as live nodes describe it. */
export type AbiFunction = Extract<MoveModule['exposed_functions'], readonly unknown[]>[number];
/** A struct of a module ABI, as live nodes describe it. */
export type AbiStruct = Extract<MoveModule['structs'], readonly unknown[]>[number];

/** An event stream's identity: the account that created it and its creation number there. */
export interface EventGuid {
  /** The account address as the node sent it (`0x1`, `0x0000…0001`, `0x0`). */
  readonly accountAddress: string;
  readonly creationNumber: bigint;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A u64 as a JSON number (documented form) or a decimal string (live form), exactly. */
function u64(value: unknown, parameter: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^[0-9]{1,20}$/.test(value)) {
    const n = BigInt(value);
    if (n <= 0xffff_ffff_ffff_ffffn) return n;
  }
  throw new InvalidArgumentError(parameter, `must be a u64 (a safe integer or a decimal string), got ${describe(value)}`);
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}

/**
 * Microseconds since the Unix epoch of an `SmrTimestamp`, either form: `{ timestamp }` (documented) or
 * `{ microseconds_since_unix_epoch, utc_date_time }` (live). Throws an `InvalidArgumentError` naming
 * `timestamp` for a value of neither form.
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
    throw new InvalidArgumentError(
      'timestamp',
      `must be { timestamp } or { microseconds_since_unix_epoch, utc_date_time } with a safe integer, got ${describe(value)}`,
    );
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
 * `{ Move: "0x…" }` (live, keyed by VM). Throws an `InvalidArgumentError` naming `sender` otherwise.
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
  throw new InvalidArgumentError('sender', `must be an address string or { Move: address }, got ${describe(value)}`);
}

/**
 * An event's stream identity, either form: `{ creation_number, account_address }` (live), or the
 * documented string when it spells `<address>:<creation number>` (how this SDK's stubs write it; the
 * document gives the string no format, so any other string gives `undefined`). Throws an
 * `InvalidArgumentError` naming `guid` for a value of neither form.
 *
 * @example
 * ```ts
 * eventGuid(event); // { accountAddress: '0xb892…4e80', creationNumber: 2n }
 * ```
 */
export function eventGuid(event: Pick<Event, 'guid'>): EventGuid | undefined {
  const guid: unknown = event.guid;
  if (typeof guid === 'string') {
    const m = /^(0x[0-9a-fA-F]{1,64}):([0-9]{1,20})$/.exec(guid);
    return m ? { accountAddress: m[1]!, creationNumber: u64(m[2], 'guid') } : undefined;
  }
  if (isObject(guid) && typeof guid.account_address === 'string') {
    return { accountAddress: guid.account_address, creationNumber: u64(guid.creation_number, 'guid') };
  }
  throw new InvalidArgumentError('guid', `must be a string or { creation_number, account_address }, got ${describe(guid)}`);
}

/**
 * An event's sequence number in its stream, either form (a JSON number, documented; a decimal string,
 * live), exactly, as a bigint. Throws an `InvalidArgumentError` naming `sequence_number` otherwise.
 *
 * @example
 * ```ts
 * eventSequenceNumber({ sequence_number: '11' }); // 11n
 * ```
 */
export function eventSequenceNumber(event: Pick<Event, 'sequence_number'>): bigint {
  return u64(event.sequence_number, 'sequence_number');
}

/** The entries of the documented (free-form object) form that have the live form's `name`. */
function named<T>(value: unknown, parameter: string): T[] {
  if (Array.isArray(value)) return value as T[];
  if (isObject(value)) return Object.values(value).filter((v) => isObject(v) && typeof v.name === 'string') as T[];
  throw new InvalidArgumentError(parameter, `must be an array or an object, got ${describe(value)}`);
}

/**
 * The functions a module exposes, either form: the live array, or the values of the documented object
 * that describe a function by `name` (the document leaves that object's shape open; the stubs key
 * the same descriptions by name). Throws an `InvalidArgumentError` naming `exposed_functions` otherwise.
 *
 * @example
 * ```ts
 * const views = moduleFunctions(abi).filter((f) => f.is_view).map((f) => f.name);
 * ```
 */
export function moduleFunctions(abi: Pick<MoveModule, 'exposed_functions'>): AbiFunction[] {
  return named<AbiFunction>(abi.exposed_functions, 'exposed_functions');
}

/**
 * The structs of a module, either form (see {@link moduleFunctions}). Throws an
 * `InvalidArgumentError` naming `structs` otherwise.
 *
 * @example
 * ```ts
 * moduleStructs(abi).map((s) => `${s.name} has ${s.abilities.join(', ')}`);
 * ```
 */
export function moduleStructs(abi: Pick<MoveModule, 'structs'>): AbiStruct[] {
  return named<AbiStruct>(abi.structs, 'structs');
}
