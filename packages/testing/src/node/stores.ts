/**
 * Fungible stores: each account of the stub (seeded or yours) has one primary fungible store of the chain's
 * coin, at an address derived from the owner's. `listFungibleAssetTransactionsV3` at that address answers
 * the owner's coin transactions (the same records and cursors); the stub has no other fungible asset.
 */
import { canonicalAddress } from '@x/common';
import { StubArgumentError } from '../errors.ts';
import { sha256Hex } from '../random.ts';

/**
 * The address of an account's primary fungible store in the stub: `0x` + sha256 of the owner's canonical
 * address (synthetic, not the derivation a real chain uses). `fa_transactions` at it lists the owner's
 * coin transactions.
 *
 * @example
 * ```ts
 * const store = fungibleStoreAddress(stub.accounts.alice);
 * await fetch(`${stub.url}/rpc/v3/accounts/${store}/fa_transactions?count=5`);
 * ```
 */
export function fungibleStoreAddress(owner: string): string {
  const address = canonicalAddress(owner);
  if (address === undefined) throw new StubArgumentError('owner', `must be 1 to 64 hex digits with or without 0x, got '${owner}'`);
  return `0x${sha256Hex('fungible-store', address)}`;
}
