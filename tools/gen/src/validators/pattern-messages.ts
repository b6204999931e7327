import type { HexPatternSpec } from './transform.ts';

/**
 * What each named pattern of the specs is, for the sentence its failures get (`must be an account
 * address: 0x followed by 1 to 64 hex digits`) where a raw regular expression told a form user nothing.
 * A hex pattern gets its shape from the pattern itself (`describeHex`), so only the noun is written
 * here; any other pattern gets the whole sentence. `pnpm gen` fails for a named pattern without one.
 */
export const PATTERN_NOUNS: Readonly<Record<string, string>> = {
  Address: 'an account address',
  AccountAddress: 'an account address',
  Hash: 'a hash',
  Identity: 'an identity',
  HexString: 'a hex string',
};

/** The whole sentence (after `must be `) of each named pattern that is not a hex pattern. */
export const PATTERN_SENTENCES: Readonly<Record<string, string>> = {
  DecimalString: 'a decimal number: digits 0-9 only',
  SignedDecimalString: 'a decimal number: digits, an optional leading "-" and an optional fraction (e.g. -12.5)',
  TradingPair: 'a trading pair: lowercase letters and digits, base and quote joined by "_" (e.g. btc_usdt)',
  MoveFunctionId: 'a Move function: address::module::function (e.g. 0x1::coin::balance)',
  MoveTypeTag: 'a Move type: bool, u8 to u256, address, signer, vector<...> or address::module::Struct',
};

function digits({ min, max, unit }: HexPatternSpec): string {
  const what = unit === 2 ? 'hex digits in pairs (whole bytes)' : 'hex digits';
  if (max === null) return min === 0 ? `any number of ${what}` : min === unit ? `one or more ${what}` : `at least ${min} ${what}`;
  return min === max ? `${min} ${what}` : `${min} to ${max} ${what}`;
}

/**
 * What a hex pattern accepts, in words: `0x followed by 1 to 64 hex digits`, `64 hex digits, with or
 * without 0x`.
 */
export function describeHex(spec: HexPatternSpec): string {
  const count = digits(spec);
  if (spec.prefix === 'required') return `0x followed by ${count}`;
  return spec.prefix === 'optional' ? `${count}, with or without 0x` : count;
}
