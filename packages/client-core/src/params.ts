import { isWellFormed, show, text, type Bad, type ParamCheck } from '@x/common';
import { InvalidArgumentError } from './errors.js';

// One home for how a value is shown in a message and for the lone-surrogate test: @x/common's, whose
// generated parameter checks use them too.
export { isWellFormed, show };

/** The constraints of one parameter, as the generated operation table carries them from the spec. */
export type ParamSpec = {
  readonly name: string;
  readonly in: string;
  readonly required: boolean;
  /** What the value must be, in words: shown instead of the pattern when a value does not match it. */
  readonly description?: string;
  /**
   * Its check, generated into every entry of `@x/common`'s tables from the forms of its `param-checks`
   * (`text`, `integer`, `u64`, `boolean`, `oneOf`, `list`), which an ad-hoc operation may use too: the
   * transport runs it with the value and the parameter's name. A parameter without one is sent as given
   * (a string, number or boolean; `required` enforced).
   */
  readonly check?: ParamCheck;
  readonly schema: {
    readonly type?: string;
    readonly format?: string;
    readonly minimum?: number;
    readonly maximum?: number;
    readonly pattern?: string;
    readonly enum?: readonly unknown[];
    readonly default?: unknown;
  };
};

/**
 * Throws the `InvalidArgumentError` of a parameter: the `bad` a generated check (`ParamSpec.check`) is
 * run with.
 *
 * @example
 * ```ts
 * getAccountV3.params[0].check('0xzz', 'address', bad); // throws InvalidArgumentError naming 'address'
 * ```
 * @internal
 */
export const bad: Bad = (parameter, problem) => {
  throw new InvalidArgumentError(parameter, problem);
};

/**
 * A parameter's value checked and in wire form: by its generated `check`, else (an ad-hoc operation's
 * parameter without one) sent as given, a string, number or boolean, `required` enforced.
 *
 * @example
 * ```ts
 * paramValue(getAccountV3.params[0], '0x1'); // '0x1'
 * ```
 * @internal
 */
export function paramValue(spec: ParamSpec, value: unknown): unknown {
  if (spec.check) return spec.check(value, spec.name, bad);
  // Without one (an ad-hoc operation's parameter): a number, bigint or boolean as given, else text as
  // `text` allows it (an object is refused as not a string).
  return /^(number|bigint|boolean)$/.test(typeof value) ? value : text(value, spec.name, bad, spec.required ? 1 : 0);
}

/**
 * Checks a client option that is an integer in `[min, max]` (page sizes, limits, concurrency).
 *
 * @example
 * ```ts
 * checkInteger('pageSize', 500, 1, 100); // throws InvalidArgumentError naming 'pageSize'
 * ```
 */
export function checkInteger(name: string, value: unknown, min: number, max: number, integer = true): number {
  // `integer` false: any number in range (a duration in ms, `milliseconds`), one check and one message for both.
  if (typeof value !== 'number' || !(value >= min && value <= max) || (integer && !Number.isSafeInteger(value))) {
    throw new InvalidArgumentError(name, `must be ${integer ? 'an integer ' : ''}from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

/**
 * Lowercase hex of bytes, without `0x`: how a v1 MoveList cursor (an array of u8) is passed back as `start`.
 *
 * @example
 * ```ts
 * bytesToHex([0, 15, 255]); // '000fff'
 * ```
 * @internal
 */
export function bytesToHex(bytes: readonly number[]): string {
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}
