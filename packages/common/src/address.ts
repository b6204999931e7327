/** What the node document calls an address: 1 to 64 hex digits, with or without a lowercase `0x`. */
const ADDRESS = /^(0x)?([0-9a-fA-F]{1,64})$/;
/** Already canonical: a special address `0x0`..`0xf`, or 64 digits that do not spell one. */
const CANONICAL = /^0x([0-9a-f]|(?!0{63})[0-9a-f]{64})$/;

/**
 * The canonical form of an account address: the one the node client sends and keys queries by, and
 * the one the stubs of `@x/testing` answer with. An address is 32 bytes; the node document writes it
 * as 64 hex characters with a `0x` prefix, leading zeros optionally stripped, so it has a long form
 * (`0x` + 64 lowercase digits) and a short form (leading zeros stripped: `0x1`). Canonical is the long
 * form, except the special addresses `0x0`..`0xf`, which take the short form (`0x1`, as in Move type
 * names and in live responses). So every spelling of one address gives one string: `0x0001` and `1`
 * are `0x1`, and an address copied from a response is returned as the same string.
 *
 * `undefined` for what is not an address as the node document writes one, a capital `0X` included
 * (nodes refuse it); the node client's `normalizeAddress` also takes `0X`, and never sends it.
 *
 * @example
 * ```ts
 * canonicalAddress('0x0001'); // '0x1'
 * canonicalAddress('ABC');    // '0x0000000000000000000000000000000000000000000000000000000000000abc'
 * canonicalAddress('0X1');    // undefined
 * ```
 */
export function canonicalAddress(input: string): string | undefined {
  // JavaScript callers may pass anything; RegExp.test would read a number as its digits.
  if (typeof input !== 'string') return undefined;
  if (CANONICAL.test(input)) return input;
  const m = ADDRESS.exec(input);
  if (!m) return undefined;
  const hex = (m[2] as string).toLowerCase().replace(/^0+/, '');
  return `0x${hex.length > 1 ? hex.padStart(64, '0') : hex || '0'}`;
}
