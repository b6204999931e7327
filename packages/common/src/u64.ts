/** The largest u64, 2^64 - 1. */
export const U64_MAX = 18446744073709551615n;

/**
 * A u64 as a bigint, exactly, from a safe integer, a bigint or a decimal string (leading zeros allowed:
 * `'007'` is 7); `undefined` for anything else (a number beyond 2^53 - 1 has lost its exact value
 * already, hex is not decimal, and nothing outside 0..2^64-1 is a u64). The one u64 reader of the
 * SDK: the clients' argument checks (`checkU64` of `@x/client-core`), the readers of server data
 * (`@x/node-client/shapes`) and the stubs of `@x/testing` all go through it.
 *
 * @example
 * ```ts
 * readU64('18446744073709551615'); // 18446744073709551615n
 * readU64('007');                  // 7n
 * readU64(2 ** 53);                // undefined
 * ```
 */
export function readU64(value: unknown): bigint | undefined {
  const big =
    typeof value === 'bigint'
      ? value
      : typeof value === 'number'
        ? Number.isSafeInteger(value)
          ? BigInt(value)
          : undefined
        : typeof value === 'string' && /^[0-9]{1,80}$/.test(value)
          ? BigInt(value)
          : undefined;
  return big !== undefined && big >= 0n && big <= U64_MAX ? big : undefined;
}
