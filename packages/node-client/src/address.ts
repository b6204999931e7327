const ADDRESS = /^(0x)?([0-9a-f]{1,64})$/i;
/** Already canonical: a special address `0x0`..`0xf`, or 64 digits that do not spell one. */
const CANONICAL = /^0x([0-9a-f]|(?!0{63})[0-9a-f]{64})$/;

/**
 * The canonical form of an account address, the one this SDK sends, keys queries by and the stubs of
 * `@x/testing` answer with. An address is 32 bytes; the node document writes it as 64 hex characters
 * with a `0x` prefix, leading zeros optionally stripped, so it has a long form (`0x` + 64 lowercase
 * digits) and a short form (leading zeros stripped: `0x1`). Canonical is the long form, except the
 * special addresses `0x0`..`0xf`, which take the short form (`0x1`, as in Move type names and in live
 * responses). So every spelling of one address gives one string: `0x0001`, `1` and `0X1` are `0x1`,
 * and an address copied from a response is already canonical (no new string is made for it).
 *
 * Input: 1 to 64 hex digits, with or without `0x`, any case, the prefix's too (`0X1`: nodes refuse a
 * capital X, so it is never sent). Values that are not addresses are returned unchanged so that the
 * argument check reports them against the spec. `canonicalAddress` of `@x/testing` is the same rule;
 * a test holds the two to the same answers.
 *
 * @example
 * ```ts
 * normalizeAddress('0x0001'); // '0x1'
 * normalizeAddress('ABC');    // '0x0000000000000000000000000000000000000000000000000000000000000abc'
 * ```
 */
export function normalizeAddress(address: unknown): unknown {
  if (typeof address !== 'string' || CANONICAL.test(address)) return address;
  const m = ADDRESS.exec(address);
  if (!m) return address;
  const hex = m[2]!.toLowerCase().replace(/^0+/, '');
  return `0x${hex.length > 1 ? hex.padStart(64, '0') : hex || '0'}`;
}
