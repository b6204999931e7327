/**
 * The checks of a call's parameters, one small function per schema form: `pnpm gen` writes each
 * parameter's own `check` from them into its entry (`getAccountV3.params[0].check`), so a bundle carries
 * the forms its operations use and no interpreter of every form. A check takes the value and the name it
 * is reported by (a parameter's, an option's, a body element's: `type_arguments[1]`), throws through
 * `bad` (the client's `InvalidArgumentError`: this package knows no error class) and returns the value to
 * send; a value left out is `undefined`, or `is required`.
 */
import { readU64, U64_MAX } from './u64.js';

/**
 * Throws the error of a parameter that failed its check: the clients hand in theirs.
 *
 * @example
 * ```ts
 * const bad: Bad = (parameter, problem) => { throw new Error(`${parameter} ${problem}`); };
 * ```
 */
export type Bad = (parameter: string, problem: string) => never;

/**
 * The check of one parameter (or request-body field), generated into its entry
 * (`getAccountV3.params[0].check`): checks `value`, reported as `name`, throws through `bad`, returns the
 * value to send (`undefined`: left out).
 *
 * @example
 * ```ts
 * const checkAddress: ParamCheck = (v, n, bad) => text(v, n, bad, 1, /^(0x)?[0-9a-fA-F]{1,64}$/u);
 * ```
 */
export type ParamCheck = (value: unknown, name: string, bad: Bad) => unknown;

/**
 * A value as an error message shows it: text quoted and cut at 80 characters, a bigint with its `n`,
 * other values by their kind (never an object's contents).
 *
 * @example
 * ```ts
 * show('0xzz'); // '"0xzz"'
 * ```
 */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/**
 * Whether `text` is well-formed UTF-16 (no lone surrogate), so that it can go into a URL; what
 * `String.prototype.isWellFormed` answers, in one linear pass on every runtime the clients support.
 *
 * @example
 * ```ts
 * isWellFormed('abc'); // true
 * isWellFormed('a\uD800'); // false
 * ```
 */
export const isWellFormed = (text: string): boolean => {
  // encodeURIComponent refuses a UTF-16 surrogate without its other half, which no URL can carry.
  try {
    return encodeURIComponent(text) !== undefined;
  } catch {
    return false;
  }
};

/**
 * A text parameter, matching `pattern` when it has one (`words` say what it expects, from the spec's
 * description).
 *
 * @example
 * ```ts
 * text('0x1', 'address', bad, 1, /^(0x)?[0-9a-fA-F]{1,64}$/u, 'expected an address'); // '0x1'
 * ```
 */
export function text(value: unknown, name: string, bad: Bad, required: 0 | 1, pattern?: RegExp, words?: string): string | undefined {
  if (value == null) return required ? bad(name, 'is required') : undefined;
  if (typeof value !== 'string') return bad(name, `must be a string, got ${show(value)}`);
  if (!isWellFormed(value)) return bad(name, 'must be well-formed Unicode text: it holds a lone surrogate');
  return !pattern || pattern.test(value) ? value : bad(name, `${words ?? `must match ${pattern.source}`}, got ${show(value)}`);
}

/**
 * An integer parameter from `min` to `max` (each when the spec gives one).
 *
 * @example
 * ```ts
 * integer(5, 'count', bad, 0, 0, 100); // 5
 * ```
 */
export function integer(value: unknown, name: string, bad: Bad, required: 0 | 1, min = -Infinity, max = Infinity): number | undefined {
  if (value == null) return required ? bad(name, 'is required') : undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) return bad(name, `must be an integer, got ${show(value)}`);
  return value < min ? bad(name, `must be >= ${min}, got ${value}`) : value > max ? bad(name, `must be <= ${max}, got ${value}`) : value;
}

/**
 * A u64 parameter (`format: uint64`): a safe integer, bigint or decimal string, sent as its decimal text.
 *
 * @example
 * ```ts
 * u64(10n, 'height', bad, 1); // '10'
 * ```
 */
export function u64(value: unknown, name: string, bad: Bad, required: 0 | 1): string | undefined {
  if (value == null) return required ? bad(name, 'is required') : undefined;
  const big = readU64(value);
  if (big !== undefined) return big.toString();
  return bad(
    name,
    typeof value === 'number' && Number.isInteger(value) && value > 0
      ? `must be a safe integer, got ${show(value)}`
      : `must be a u64 from 0 to ${U64_MAX} (number, bigint or decimal string), got ${show(value)}`,
  );
}

/**
 * A boolean parameter.
 *
 * @example
 * ```ts
 * boolean(true, 'with_proof', bad, 0); // true
 * ```
 */
export function boolean(value: unknown, name: string, bad: Bad, required: 0 | 1): boolean | undefined {
  if (value == null) return required ? bad(name, 'is required') : undefined;
  return typeof value === 'boolean' ? value : bad(name, `must be true or false, got ${show(value)}`);
}

/**
 * A parameter that is one of the spec's `values`.
 *
 * @example
 * ```ts
 * oneOf('asc', 'order', bad, 0, ['asc', 'desc']); // 'asc'
 * ```
 */
export function oneOf<T>(value: unknown, name: string, bad: Bad, required: 0 | 1, values: readonly T[]): T | undefined {
  if (value == null) return required ? bad(name, 'is required') : undefined;
  return values.includes(value as T) ? (value as T) : bad(name, `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}, got ${show(value)}`);
}

/**
 * An array request-body field, each element checked by `item` (reported as `name[i]`) when it has one;
 * the array is sent as given.
 *
 * @example
 * ```ts
 * list(['u64'], 'type_arguments', bad, 1, (v, n, b) => text(v, n, b, 1)); // ['u64']
 * ```
 */
export function list(value: unknown, name: string, bad: Bad, required: 0 | 1, item?: ParamCheck): readonly unknown[] | undefined {
  if (value == null) return required ? bad(name, 'is required') : undefined;
  if (!Array.isArray(value)) return bad(name, `must be an array, got ${show(value)}`);
  if (item) value.forEach((element, i) => item(element, `${name}[${i}]`, bad));
  return value;
}
