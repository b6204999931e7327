// Any case, the prefix's too: `0X1` is read as `0x1` (nodes refuse a capital X, so it is never sent).
const ADDRESS = /^(0x)?([0-9a-f]{1,64})$/i;
const CANONICAL = /^0x[0-9a-f]{1,64}$/;

/**
 * The canonical wire form of an account address: `0x` and lowercase hex digits. Values that are not
 * addresses are returned unchanged so that the argument check reports them against the spec.
 *
 * @example
 * ```ts
 * normalizeAddress('ABC'); // '0xabc'
 * ```
 */
export function normalizeAddress(address: unknown): unknown {
  // Most addresses arrive canonical (copied from another response): no new string for them.
  if (typeof address !== 'string' || CANONICAL.test(address)) return address;
  const m = ADDRESS.exec(address);
  return m ? `0x${m[2]!.toLowerCase()}` : address;
}
