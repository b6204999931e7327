import { InvalidArgumentError } from './errors.js';
import { show, type FormatChecks } from './params.js';

const U64_MAX = 18446744073709551615n;

/**
 * A u64 given as a safe integer, a bigint or a decimal string, as its decimal string.
 *
 * @example
 * ```ts
 * checkU64('start', 2n ** 53n + 1n); // '9007199254740993'
 * ```
 */
export function checkU64(name: string, value: unknown): string {
  let big: bigint;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) {
      throw new InvalidArgumentError(name, `must be a safe integer (pass larger values as bigint or decimal string), got ${show(value)}`);
    }
    big = BigInt(value);
  } else if (typeof value === 'bigint') {
    big = value;
  } else if (typeof value === 'string' && /^(0|[1-9][0-9]*)$/.test(value)) {
    big = BigInt(value);
  } else {
    throw new InvalidArgumentError(name, `must be a u64 (number, bigint or decimal string), got ${show(value)}`);
  }
  if (big < 0n || big > U64_MAX) throw new InvalidArgumentError(name, `must be between 0 and ${U64_MAX}, got ${big}`);
  return big.toString();
}

/**
 * The format checks of a spec with `format: uint64` parameters, for `checkParam` and the transport.
 *
 * @example
 * ```ts
 * checkParam({ name: 'start', in: 'query', required: false, schema: { type: 'integer', format: 'uint64' } }, 2n ** 64n, U64_FORMATS);
 * // throws InvalidArgumentError: Invalid argument 'start': must be between 0 and 18446744073709551615, ...
 * ```
 */
export const U64_FORMATS: FormatChecks = { uint64: checkU64 };
