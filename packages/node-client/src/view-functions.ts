/**
 * Types of the framework view functions wallets call most, by their name, so that
 * `node.v3.view({ function: '0x1::coin::balance', type_arguments: [coin], arguments: [owner] })` takes the
 * arguments that function takes and answers `{ result: [string] }` without a cast, as `getResource` types
 * resources. Results are as real nodes send them (plain JSON, not the served document's one-key
 * MoveValues): u64 and larger as decimal strings, u8 to u32 as numbers, booleans as themselves, addresses
 * as `0x` hex. Any other function takes any arguments and answers `unknown[]`. Types only: no bytes.
 *
 * @module
 */
import type { ViewRequest } from '@x/node-types';

/**
 * The typed framework view functions: for each name, its type arguments, arguments and results. A coin
 * type is a Move struct tag such as `0x1::supra_coin::SupraCoin`.
 */
export type ViewFunctions = {
  /** An account's balance of a coin (u64, decimal), in the coin's smallest unit. */
  '0x1::coin::balance': { type_arguments: [coinType: string]; arguments: [owner: string]; result: [balance: string] };
  /** A coin's decimals (u8): `10 ** decimals` of the smallest unit is one coin. */
  '0x1::coin::decimals': { type_arguments: [coinType: string]; arguments: []; result: [decimals: number] };
  /** A coin's name. */
  '0x1::coin::name': { type_arguments: [coinType: string]; arguments: []; result: [name: string] };
  /** A coin's symbol. */
  '0x1::coin::symbol': { type_arguments: [coinType: string]; arguments: []; result: [symbol: string] };
  /** Whether the account holds a store of the coin. */
  '0x1::coin::is_account_registered': { type_arguments: [coinType: string]; arguments: [owner: string]; result: [registered: boolean] };
  /** An account's sequence number (u64, decimal). */
  '0x1::account::get_sequence_number': { type_arguments: []; arguments: [address: string]; result: [sequenceNumber: string] };
  /** Whether an account exists at the address. */
  '0x1::account::exists_at': { type_arguments: []; arguments: [address: string]; result: [exists: boolean] };
  /** The chain's clock, microseconds since the Unix epoch (u64, decimal). */
  '0x1::timestamp::now_microseconds': { type_arguments: []; arguments: []; result: [microseconds: string] };
  /** The chain's clock, seconds since the Unix epoch (u64, decimal). */
  '0x1::timestamp::now_seconds': { type_arguments: []; arguments: []; result: [seconds: string] };
};

/** The name of a typed view function. */
export type ViewFunctionName = keyof ViewFunctions;

/** A field of a view request: one that is empty for this function (`[]`) may be left out; the client sends `[]`. */
type Field<K extends string, T extends readonly unknown[]> = [] extends T ? { [P in K]?: T | undefined } : { [P in K]: T };

/**
 * The request of a view call by its function's name: the typed functions' own type arguments and
 * arguments, any arguments for another function (u64 and larger as decimal strings or bigints).
 */
export type ViewRequestOf<F extends string> = F extends ViewFunctionName
  ? { function: F } & Field<'type_arguments', ViewFunctions[F]['type_arguments']> & Field<'arguments', ViewFunctions[F]['arguments']>
  : { function: F; type_arguments?: ViewRequest['type_arguments'] | undefined; arguments?: unknown[] | undefined };

/**
 * The answer of a view call by its function's name: `{ result }` typed for the typed functions,
 * `unknown[]` for any other; or, for a function of your own, the result type you give
 * (`view<[string, number]>(...)`, as the Aptos SDK's `view<T>`).
 */
export type ViewResultOf<F extends string | readonly unknown[]> = { result: F extends ViewFunctionName ? ViewResults[F] : F extends string ? unknown[] : F };

/** Each typed function's result, by name. */
type ViewResults = { [K in ViewFunctionName]: ViewFunctions[K]['result'] };
