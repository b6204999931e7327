const ADDRESS = /^(0x)?([0-9a-fA-F]{1,64})$/;

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
  // `0x` and no capitals: canonical, or no address at all, which the check then reports as given. Most
  // addresses arrive canonical (copied from another response); this is a third of a regex test's cost.
  if (typeof address !== 'string' || (address.startsWith('0x') && address === address.toLowerCase())) return address;
  const m = ADDRESS.exec(address);
  return m ? `0x${m[2]!.toLowerCase()}` : address;
}
