import { canonicalAddress } from '@x/common';

/**
 * The canonical form of an account address (`canonicalAddress` of `@x/common`: special addresses
 * `0x0`..`0xf` short, every other address `0x` + 64 lowercase digits), the one this client sends and
 * keys queries by and the stubs of `@x/testing` answer with. So every spelling of one address gives one
 * string: `0x0001`, `1` and `0X1` are `0x1`, and an address copied from a response stays the same string.
 *
 * Input: 1 to 64 hex digits, with or without `0x`, any case, the prefix's too (`0X1`: nodes refuse a
 * capital X, so it is never sent). Values that are not addresses are returned unchanged so that the
 * argument check reports them against the spec.
 *
 * @example
 * ```ts
 * normalizeAddress('0x0001'); // '0x1'
 * normalizeAddress('ABC');    // '0x0000000000000000000000000000000000000000000000000000000000000abc'
 * ```
 */
export function normalizeAddress(address: unknown): unknown {
  if (typeof address !== 'string') return address;
  return canonicalAddress(address.startsWith('0X') ? `0x${address.slice(2)}` : address) ?? address;
}
