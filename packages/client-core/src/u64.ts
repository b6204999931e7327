import { InvalidArgumentError } from './errors.js';
import { show, type FormatChecks } from './params.js';
import { readU64, U64_MAX } from '@x/common';

// The one u64 reader lives in @x/common (the stubs read by it too); the clients import it from here.
export { readU64 };

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
      ? `must be a safe integer, got ${show(value)}`
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
