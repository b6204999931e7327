import { InvalidArgumentError } from './errors.js';
import { show, type FormatChecks } from './params.js';

const U64_MAX = 18446744073709551615n;

/**
 * A u64 as a bigint, exactly, from a safe integer, a bigint or a decimal string (leading zeros allowed:
 * `'007'` is 7); `undefined` for anything else (a number beyond 2^53 - 1 has lost its exact value
 * already, hex is not decimal, and nothing outside 0..2^64-1 is a u64). The one u64 reader of the
 * SDK: arguments (`checkU64`) and server data (`@x/node-client/shapes`) go through it.
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

/**
 * A u64 given as a safe integer, a bigint or a decimal string (leading zeros allowed), as its
 * canonical decimal string.
 *
 * @example
 * ```ts
 * checkU64('start', 2n ** 53n + 1n); // '9007199254740993'
 * checkU64('start', '007');          // '7'
 * ```
 */
export function checkU64(name: string, value: unknown): string {
  const big = readU64(value);
  if (big !== undefined) return big.toString();
  throw new InvalidArgumentError(
    name,
    typeof value === 'number' && Number.isInteger(value) && value > 0
      ? `must be a safe integer (pass larger values as bigint or decimal string), got ${show(value)}`
      : `must be a u64 from 0 to ${U64_MAX} (number, bigint or decimal string), got ${show(value)}`,
  );
}

/**
 * The format checks of a spec with `format: uint64` parameters, for `checkParam` and the transport.
 *
 * @example
 * ```ts
 * checkParam({ name: 'start', in: 'query', required: false, schema: { type: 'integer', format: 'uint64' } }, 2n ** 64n, U64_FORMATS);
 * // throws InvalidArgumentError: Invalid argument 'start': must be a u64 from 0 to 18446744073709551615, ...
 * ```
 */
export const U64_FORMATS: FormatChecks = { uint64: checkU64 };
