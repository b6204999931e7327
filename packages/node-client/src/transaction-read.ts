import type { Event } from '@x/node-types';
import type { TransactionRecord } from './wallet.js';
import { isObject, shapeError } from './shape-read.js';

/** The entry function a transaction called, read from its payload. */
export type EntryFunctionCall = {
  /** The module's address, as the payload writes it (e.g. `0x1`). */
  readonly address: string;
  /** The module's name, e.g. `supra_account`. */
  readonly module: string;
  /** The function's name, e.g. `transfer`. */
  readonly function: string;
  /** The type arguments, as Move type strings. */
  readonly typeArguments: readonly string[];
  /** The arguments, as the node sends them: strings (u64 and addresses too), booleans, nested arrays. */
  readonly arguments: readonly unknown[];
};

const FUNCTION = /^(0x[0-9a-fA-F]{1,64})::([A-Za-z_][A-Za-z0-9_]*)::([A-Za-z_][A-Za-z0-9_]*)$/;

/**
 * The entry function a transaction called, from its payload (`{ Move: { type: 'entry_function_payload',
 * function, type_arguments, arguments } }` as nodes send it, or the inner object); `undefined` for any
 * other payload (a script, an automation registration, a block's metadata). An entry payload that cannot
 * be read (a function that is not `address::module::name`, arguments that are not a list) came from the
 * server: a `ResponseShapeError` naming where.
 *
 * @example
 * ```ts
 * const call = entryFunction(tx); // { address: '0x1', module: 'supra_account', function: 'transfer', typeArguments: [], arguments: ['0xb0b…', '100'] }
 * if (call?.function === 'transfer') console.log(call.arguments[1]);
 * ```
 */
export function entryFunction(tx: TransactionRecord): EntryFunctionCall | undefined {
  const outer = (tx as { payload?: unknown }).payload;
  const inner = isObject(outer) && isObject(outer.Move) ? outer.Move : outer;
  const base = inner === outer ? '/payload' : '/payload/Move';
  if (!isObject(inner) || inner.type !== 'entry_function_payload') return undefined;
  const m = typeof inner.function === 'string' ? FUNCTION.exec(inner.function) : null;
  if (!m) throw shapeError('entryFunction', `${base}/function`, 'an address::module::function string', inner.function);
  const typeArguments = inner.type_arguments ?? [];
  if (!Array.isArray(typeArguments) || !typeArguments.every((t) => typeof t === 'string')) throw shapeError('entryFunction', `${base}/type_arguments`, 'a list of type strings', typeArguments);
  const args = inner.arguments ?? [];
  if (!Array.isArray(args)) throw shapeError('entryFunction', `${base}/arguments`, 'a list', args);
  return { address: m[1]!, module: m[2]!, function: m[3]!, typeArguments: typeArguments as string[], arguments: args };
}

/**
 * The events a transaction emitted: those of its Move output, in order; none for a transaction without
 * output (not yet executed), or whose output is not a Move one (`Empty`, DKG, oracle).
 *
 * @example
 * ```ts
 * for (const event of transactionEvents(tx)) if (event.type === '0x1::coin::DepositEvent') console.log(event.data);
 * ```
 */
export function transactionEvents(tx: TransactionRecord): Event[] {
  const output = (tx as { output?: unknown }).output;
  if (!isObject(output) || !('Move' in output)) return [];
  const events = (output.Move as { events?: unknown }).events;
  if (!Array.isArray(events)) throw shapeError('transactionEvents', '/output/Move/events', 'a list of events', events);
  return events as Event[];
}
