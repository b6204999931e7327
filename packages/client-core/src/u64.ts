import { bad } from './params.js';
import { readU64, u64 } from '@x/common';

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
  // The generated u64 parameters' own check, with the value required.
  return u64(value, name, bad, 1)!;
}
