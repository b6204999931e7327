import type { MoveValue } from '@x/node-types';
import { isObject, shapeError } from './shape-read.js';

/**
 * A Move value as `view` results come (plain JSON): u64, u128 and u256 as decimal strings, u8 to u32 as
 * numbers, booleans as themselves, addresses and bytes as `0x` hex, a vector as its array, a struct as its
 * object of fields, a string as itself.
 */
export type MoveJson = string | number | boolean | readonly MoveJson[] | { readonly [field: string]: unknown };

/** The one key of each form, and what its value must be, as the spec's `MoveValue` says. */
const FORMS: Readonly<Record<string, (v: unknown) => boolean>> = {
  U8: (v) => Number.isInteger(v),
  U16: (v) => Number.isInteger(v),
  U32: (v) => Number.isInteger(v),
  U64: (v) => typeof v === 'string',
  U128: (v) => typeof v === 'string',
  U256: (v) => typeof v === 'string',
  Bool: (v) => typeof v === 'boolean',
  Address: (v) => typeof v === 'string',
  Bytes: (v) => typeof v === 'string',
  String: (v) => typeof v === 'string',
  Vector: Array.isArray,
  Struct: isObject,
};

/**
 * Reads a one-key `MoveValue` (what a table item read answers: `{ "U64": "5" }`) as `view` answers the
 * same value (`"5"`), so a table item and a view result are read one way. `T` types the result as you
 * know it (as `view<T>` does); nothing is checked beyond the form. A value of no known form came from
 * the node: a `ResponseShapeError` naming `moveValueJson`.
 *
 * @example
 * ```ts
 * import { createNodeClient } from '@x/node-client';
 * import { moveValueJson } from '@x/node-client/shapes';
 * const node = createNodeClient({ baseUrl: 'http://127.0.0.1:27000' });
 * const item = await node.v3.getTableItem('0x2a', { key_type: 'address', value_type: 'u64', key: '0x1' });
 * const amount = moveValueJson<string>(item); // '5', as view would answer it
 * ```
 */
export function moveValueJson<T extends MoveJson = MoveJson>(value: MoveValue): T {
  const v: unknown = value;
  const keys = isObject(v) ? Object.keys(v) : [];
  const form = keys.length === 1 ? keys[0]! : undefined;
  const inner = form === undefined ? undefined : (v as Record<string, unknown>)[form];
  if (form === undefined || !Object.hasOwn(FORMS, form) || !FORMS[form]!(inner)) {
    throw shapeError('moveValueJson', '', `a MoveValue: one key of ${Object.keys(FORMS).join(', ')} with its value`, value);
  }
  return inner as T;
}
