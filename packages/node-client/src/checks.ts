/**
 * Checks of one call's arguments beyond each parameter's own, generated into the actions whose operation
 * has them (the spec's `x-exclusive-parameters`, `x-ordered-parameters`, v1's byte cursors): a bad call
 * is an `InvalidArgumentError` answered, never thrown, so that an action always rejects.
 */
import type { PagingRule } from '@x/common';
import { InvalidArgumentError, readU64 } from '@x/client-core';
import { startParam } from '@x/client-core/internal';

/**
 * The error of a call that gives more than one of `names` (v3 automated transactions: `cursor` or `block_height`).
 *
 * @example
 * ```ts
 * exclusive({ cursor: 'ab', block_height: 5 }, ['cursor', 'block_height']); // InvalidArgumentError naming block_height
 * ```
 */
export function exclusive(args: Record<string, unknown>, names: readonly string[]): InvalidArgumentError | undefined {
  const given = names.filter((name) => args[name] !== undefined);
  return given.length > 1 ? new InvalidArgumentError(given[1]!, `cannot be combined with ${given[0]}: give one of ${names.join(', ')}`) : undefined;
}

/**
 * The error of a range whose end is below its start (events' heights), which would answer nothing, as if
 * there were nothing; values that are no u64 are left to the parameters' own checks.
 *
 * @example
 * ```ts
 * ordered({ start_height: 9, end_height: 5 }, 'start_height', 'end_height'); // InvalidArgumentError naming end_height
 * ```
 */
export function ordered(args: Record<string, unknown>, low: string, high: string): InvalidArgumentError | undefined {
  const a = readU64(args[low]);
  const b = readU64(args[high]);
  return a !== undefined && b !== undefined && b < a ? new InvalidArgumentError(high, `must not be below ${low} (${a}), got ${b}`) : undefined;
}

/**
 * A v1 cursor given as its u8 bytes (as a v1 listing returns it) put in `args.start` as the hex the node
 * takes back; the error of an array that is not bytes.
 *
 * @example
 * ```ts
 * byteStart({ start: [0, 171] }, paging.listModulesV1); // args.start is now '00ab'
 * ```
 */
export function byteStart(args: Record<string, unknown>, rule: PagingRule): InvalidArgumentError | undefined {
  try {
    args.start = startParam(rule, args.start);
    return undefined;
  } catch (err) {
    return err as InvalidArgumentError;
  }
}
