/**
 * Wallet and explorer readers of `@x/node-client/shapes`: an account's balance of a coin, a coin's
 * decimals, amounts as exact decimal text, and what a transaction did to an address's coins. Like the
 * other readers, they take a record of either form (documented or live) and either version (v2
 * `MoveResource`, v1 `MoveValueResponseV1`), and throw a `ResponseShapeError` for a record they cannot
 * read; a bad argument of the caller's own is an `InvalidArgumentError`.
 *
 * @module
 */
import { InvalidArgumentError } from '@x/client-core';
import type { MoveResource, MoveValueResponseV1 } from '@x/node-types';
import { describe, guidOf, isObject, shapeError, u64 } from './shape-read.js';
import { normalizeAddress } from './address.js';

/** The Move type of the native coin, `0x1::supra_coin::SupraCoin`. */
export const SUPRA_COIN = '0x1::supra_coin::SupraCoin';

/** The resource type of an account's store of `Coin`: `0x1::coin::CoinStore<Coin>`. */
export type CoinStoreType<Coin extends string = string> = `0x1::coin::CoinStore<${Coin}>`;
/** The resource type of a coin's description: `0x1::coin::CoinInfo<Coin>`, held at the coin's address. */
export type CoinInfoType<Coin extends string = string> = `0x1::coin::CoinInfo<${Coin}>`;

/** A resource as `getResource` answers it: v2 `MoveResource`, or the v1 body (documented or live form). */
export type ResourceRecord = Pick<MoveResource, 'data'> | MoveValueResponseV1;

/** The key of a one-key MoveValue: its variant, `U8`, `Bool`, `Struct`, … */
const MOVE_VALUE_KEY = /^[A-Za-z][A-Za-z0-9]{0,31}$/;

/** A coin's Move type: `<address>::<module>::<struct>`, type arguments allowed. */
const COIN_TYPE = /^(0x[0-9a-fA-F]{1,64})::[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*(<.+>)?$/;

function coinAddress(coinType: unknown): string {
  const m = typeof coinType === 'string' ? COIN_TYPE.exec(coinType) : null;
  if (!m) throw new InvalidArgumentError('coinType', `must be a Move struct type <address>::<module>::<name>, e.g. '${SUPRA_COIN}', got ${describe(coinType)}`);
  return m[1]!;
}

/**
 * The resource type of an account's store of a coin, for `getResource`: the answer's `data` is then
 * typed as a `CoinStoreData`.
 *
 * @example
 * ```ts
 * const store = await node.v2.getResource(address, coinStoreType(SUPRA_COIN));
 * store.data.coin.value; // '1001350324471406'
 * ```
 */
export function coinStoreType<Coin extends string>(coinType: Coin): CoinStoreType<Coin> {
  coinAddress(coinType);
  return `0x1::coin::CoinStore<${coinType}>`;
}

/**
 * Where a coin's `CoinInfo` (name, symbol, decimals) is: the address of the account that defined the
 * coin (the first part of its type) and the resource type, for `getResource`.
 *
 * @example
 * ```ts
 * const { address, resourceType } = coinInfoOf(SUPRA_COIN); // '0x1', '0x1::coin::CoinInfo<0x1::supra_coin::SupraCoin>'
 * const decimals = coinDecimals(await node.v2.getResource(address, resourceType)); // 8
 * ```
 */
export function coinInfoOf<Coin extends string>(coinType: Coin): { address: string; resourceType: CoinInfoType<Coin> } {
  return { address: coinAddress(coinType), resourceType: `0x1::coin::CoinInfo<${coinType}>` };
}

/**
 * A top-level field of a resource, with its JSON pointer, from any form:
 * - v2 `{ type, data }`: `data[name]`;
 * - v1 live `{ result: [struct JSON] }`: `result[0][name]`;
 * - v1 documented `{ result: [{ Struct: struct JSON }] }`: `result[0].Struct[name]`;
 * - v1 documented, one MoveValue per field in declaration order (`[{ Struct: … }, { Bool: false }, …]`):
 *   the value inside `result[index]`.
 */
function field(resource: unknown, name: string, index: number, reader: string): [unknown, string] {
  if (!isObject(resource)) throw shapeError(reader, '', 'a resource: v2 { type, data } or v1 { result }', resource);
  if (isObject(resource.data)) return [resource.data[name], `/data/${name}`];
  const result = resource.result;
  if (!Array.isArray(result)) throw shapeError(reader, '', 'a resource: v2 { type, data } or v1 { result }', resource);
  const first: unknown = result[0];
  if (result.length === 1 && isObject(first)) {
    const keys = Object.keys(first);
    if (keys.length === 1 && keys[0] === 'Struct' && isObject(first.Struct)) return [first.Struct[name], `/result/0/Struct/${name}`];
    return [first[name], `/result/0/${name}`];
  }
  const item: unknown = result[index];
  const key = isObject(item) ? Object.keys(item) : [];
  // The key names the MoveValue's variant (U8, Struct, …) and goes into the JSON pointer of any error
  // below, so a key of another form (of megabytes, or with a `/`) is no MoveValue.
  if (key.length !== 1 || !MOVE_VALUE_KEY.test(key[0]!)) throw shapeError(reader, `/result/${index}`, `a one-key MoveValue (field ${name})`, item);
  return [(item as Record<string, unknown>)[key[0]!], `/result/${index}/${key[0]!}`];
}

/** Refuses a v2 resource of another type than the reader reads (the caller's mistake, not the server's). */
function checkType(resource: unknown, kind: string): void {
  const type = isObject(resource) ? resource.type : undefined;
  if (typeof type === 'string' && !type.includes(`::coin::${kind}<`)) {
    throw new InvalidArgumentError('resource', `must be a 0x1::coin::${kind}<…> resource, got one of type ${describe(type)}`);
  }
}

/**
 * The balance in a `0x1::coin::CoinStore<…>` resource, exactly, in the coin's smallest unit: v2
 * `data.coin.value`, or the v1 `result` in its documented forms (`[{ Struct: { coin, … } }]`, or one
 * MoveValue per field: `[{ Struct: { value } }, { Bool }, …]`) and its live form (`[{ coin, … }]`).
 * Format it with {@link formatAmount} and the coin's {@link coinDecimals}.
 *
 * @example
 * ```ts
 * coinBalance(await node.v2.getResource(address, coinStoreType(SUPRA_COIN))); // 1001350324471406n
 * coinBalance({ result: [{ coin: { value: '49997100' }, frozen: false }] });  // 49997100n (v1, live)
 * ```
 */
export function coinBalance(resource: ResourceRecord): bigint {
  checkType(resource, 'CoinStore');
  const [coin, path] = field(resource, 'coin', 0, 'coinBalance');
  if (!isObject(coin)) throw shapeError('coinBalance', path, '{ value }', coin);
  return u64(coin.value, 'coinBalance', `${path}/value`);
}

/**
 * A coin's decimals from its `0x1::coin::CoinInfo<…>` resource (see {@link coinInfoOf}), any form
 * (v2 `data.decimals`; v1 `result` as in {@link coinBalance}, the third field in the one-per-field form).
 *
 * @example
 * ```ts
 * const { address, resourceType } = coinInfoOf(SUPRA_COIN);
 * coinDecimals(await node.v2.getResource(address, resourceType)); // 8
 * ```
 */
export function coinDecimals(resource: ResourceRecord): number {
  checkType(resource, 'CoinInfo');
  const [decimals, path] = field(resource, 'decimals', 2, 'coinDecimals');
  if (typeof decimals !== 'number' || !Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    throw shapeError('coinDecimals', path, 'a u8 (an integer from 0 to 255)', decimals);
  }
  return decimals;
}

/**
 * An amount in a coin's smallest unit as decimal text with `decimals` places, exactly (bigint
 * arithmetic, no float): trailing zeros of the fraction are dropped, and so is the point when nothing
 * is left after it; a negative amount (a net change) keeps its sign. `value` is a bigint, a safe
 * integer or a decimal string (an optional `-`, then digits); `decimals` an integer from 0 to 255 (a
 * u8, as in `CoinInfo`).
 *
 * @example
 * ```ts
 * formatAmount(1001350324471406n, 8); // '10013503.24471406'
 * formatAmount(100000000n, 8);        // '1'
 * formatAmount('-1500', 3);           // '-1.5'
 * formatAmount(5n, 8);                // '0.00000005'
 * ```
 */
export function formatAmount(value: bigint | number | string, decimals: number): string {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    throw new InvalidArgumentError('decimals', `must be an integer from 0 to 255 (a coin's CoinInfo decimals), got ${describe(decimals)}`);
  }
  let n: bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value);
  else if (typeof value === 'string' && /^-?[0-9]+$/.test(value)) n = BigInt(value);
  else {
    throw new InvalidArgumentError(
      'value',
      `must be an integer amount in the coin's smallest unit (a bigint, a safe integer or a decimal string), got ${describe(value)}${typeof value === 'number' ? ' (pass larger or fractional amounts as bigint or decimal text)' : ''}`,
    );
  }
  const sign = n < 0n ? '-' : '';
  const digits = (n < 0n ? -n : n).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** What one transaction did to an address's coins (see {@link coinChanges}). */
export type CoinChanges = {
  /** Sum of the address's `0x1::coin::DepositEvent` amounts. */
  readonly deposited: bigint;
  /** Sum of the address's `0x1::coin::WithdrawEvent` amounts. */
  readonly withdrawn: bigint;
  /** `deposited - withdrawn` (negative when more went out). */
  readonly net: bigint;
};

/** Options of {@link coinChanges}. */
export type CoinChangesOptions = {
  /**
   * The address's `CoinStore` of one coin (any form, as `getResource` answers it): only the events of
   * its two streams count, so that the changes are of that coin alone. Without it, every coin
   * deposit and withdrawal of the address counts, whatever the coin.
   */
  coinStore?: ResourceRecord;
};

const DEPOSIT = /^0x0*1::coin::DepositEvent$/;
const WITHDRAW = /^0x0*1::coin::WithdrawEvent$/;

/** The creation number of a CoinStore's event handle, any form. */
function handleNumber(store: ResourceRecord, name: string, index: number): bigint {
  const [handle, path] = field(store, name, index, 'coinChanges');
  const guid = isObject(handle) ? handle.guid : undefined;
  const id = isObject(guid) ? guid.id : undefined;
  return u64(isObject(id) ? id.creation_num : undefined, 'coinChanges', `${path}/guid/id/creation_num`);
}

/**
 * A transaction of any version and kind (v1, v2, or any `txn_type` of a v3 `TransactionV3`, narrowed or
 * not): the readers take what they read from it and treat a kind without it as having none.
 */
export type TransactionRecord = object;

/**
 * The coins a transaction moved into and out of `address`: the amounts of its `0x1::coin::DepositEvent`
 * and `0x1::coin::WithdrawEvent` events whose stream (guid) belongs to the address, either form of the
 * guid and sequence number, any version. A transaction without Move output (`"Empty"`, `Dkg`, `Oracle`, or
 * `null` output) moved nothing. Gas is not in these events (the `FeeStatement` event and the header's
 * `gas_unit_price` say what it cost the sender). An event of a documented guid string this SDK cannot
 * read (the document gives it no format) is not counted.
 *
 * @example
 * ```ts
 * for await (const tx of node.v2.coinTransactions(address, { limit: 20 })) {
 *   const { net } = coinChanges(tx, address);
 *   console.log(tx.hash, formatAmount(net, 8));
 * }
 * ```
 */
export function coinChanges(tx: TransactionRecord, address: string, options: CoinChangesOptions = {}): CoinChanges {
  if (typeof address !== 'string' || !/^(0x)?[0-9a-f]{1,64}$/i.test(address)) {
    throw new InvalidArgumentError('address', `must be 1 to 64 hex digits, with or without 0x, got ${describe(address)}`);
  }
  const who = normalizeAddress(address);
  const store = options.coinStore;
  const streams = store === undefined ? undefined : [handleNumber(store, 'deposit_events', 2), handleNumber(store, 'withdraw_events', 3)];
  let deposited = 0n;
  let withdrawn = 0n;
  const output: unknown = (tx as { output?: unknown }).output;
  const move = isObject(output) ? output.Move : undefined;
  if (move !== undefined) {
    const events = isObject(move) ? move.events : undefined;
    if (!Array.isArray(events)) throw shapeError('coinChanges', '/output/Move/events', 'an array of events', events);
    events.forEach((event: unknown, i) => {
      const at = `/output/Move/events/${i}`;
      if (!isObject(event)) throw shapeError('coinChanges', at, 'an event', event);
      const type = event.type;
      const isDeposit = typeof type === 'string' && DEPOSIT.test(type);
      if (!isDeposit && !(typeof type === 'string' && WITHDRAW.test(type))) return;
      const guid = guidOf(event.guid, 'coinChanges', `${at}/guid`);
      if (guid === undefined || normalizeAddress(guid.accountAddress) !== who) return;
      if (streams && guid.creationNumber !== streams[isDeposit ? 0 : 1]) return;
      const data = event.data;
      const amount = u64(isObject(data) ? data.amount : undefined, 'coinChanges', `${at}/data/amount`);
      if (isDeposit) deposited += amount;
      else withdrawn += amount;
    });
  }
  return { deposited, withdrawn, net: deposited - withdrawn };
}

