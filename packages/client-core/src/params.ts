import { InvalidArgumentError } from './errors.js';

/** The constraints of one parameter, as the generated operation table carries them from the spec. */
export type ParamSpec = {
  readonly name: string;
  readonly in: string;
  readonly required: boolean;
  /** What the value must be, in words: shown instead of the pattern when a value does not match it. */
  readonly description?: string;
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
 * Checks of the `format`s a client's spec needs beyond the plain types (the node spec's `uint64`), by
 * format name. A client passes only the ones it uses, so the other client's bundle does not carry them.
 */
export type FormatChecks = Readonly<Record<string, (name: string, value: unknown) => string>>;

const patterns = new Map<string, RegExp>();

/**
 * Checks one value against its parameter's spec constraints and returns it in wire form (a `format`
 * of `formats` decides both: a u64, which may exceed 2^53-1, as a string). Throws
 * `InvalidArgumentError` naming the parameter.
 *
 * @example
 * ```ts
 * checkParam({ name: 'count', in: 'query', required: false, schema: { type: 'integer', maximum: 100 } }, 101);
 * // throws InvalidArgumentError: Invalid argument 'count': must be <= 100, got 101
 * ```
 */
export function checkParam(spec: ParamSpec, value: unknown, formats?: FormatChecks): string | number | boolean | undefined {
  const { name, schema } = spec;
  if (value === undefined || value === null) {
    if (spec.required) throw new InvalidArgumentError(name, 'is required');
    return undefined;
  }
  const format = schema.format !== undefined && formats && Object.hasOwn(formats, schema.format) ? formats[schema.format] : undefined;
  if (format) return format(name, value);
  if (schema.type === 'boolean') {
    if (typeof value !== 'boolean') throw new InvalidArgumentError(name, `must be true or false, got ${show(value)}`);
    return value;
  }
  if (schema.enum !== undefined && !schema.enum.includes(value)) {
    throw new InvalidArgumentError(name, `must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}, got ${show(value)}`);
  }
  if (schema.type === 'integer') {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
      throw new InvalidArgumentError(name, `must be an integer, got ${show(value)}`);
    }
    if (schema.minimum !== undefined && value < schema.minimum) {
      throw new InvalidArgumentError(name, `must be >= ${schema.minimum}, got ${value}`);
    }
    if (schema.maximum !== undefined && value > schema.maximum) {
      throw new InvalidArgumentError(name, `must be <= ${schema.maximum}, got ${value}`);
    }
    return value;
  }
  if (typeof value !== 'string') throw new InvalidArgumentError(name, `must be a string, got ${show(value)}`);
  // A URL cannot carry it (encodeURIComponent throws a URIError on every call).
  if (!isWellFormed(value)) throw new InvalidArgumentError(name, 'must be well-formed Unicode text: it holds a lone surrogate');
  if (schema.pattern !== undefined) {
    let re = patterns.get(schema.pattern);
    if (!re) patterns.set(schema.pattern, (re = new RegExp(schema.pattern, 'u')));
    if (!re.test(value)) throw new InvalidArgumentError(name, `${spec.description === undefined ? `must match ${schema.pattern}` : `expected ${spec.description.charAt(0).toLowerCase()}${spec.description.slice(1)}`}, got ${show(value)}`);
  }
  return value;
}

/**
 * Checks a client option that is an integer in `[min, max]` (page sizes, limits, concurrency).
 *
 * @example
 * ```ts
 * checkInteger('pageSize', 500, 1, 100); // throws InvalidArgumentError naming 'pageSize'
 * ```
 */
export function checkInteger(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(name, `must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

/** A value as an error message shows it: short, and never a whole object. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
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

/** A UTF-16 surrogate without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether `text` is well-formed UTF-16 (no lone surrogate), so that it can go into a URL; what
 * `String.prototype.isWellFormed` answers, in one linear pass on every runtime the clients support.
 *
 * @example
 * ```ts
 * isWellFormed('abc'); // true
 * isWellFormed('a\uD800'); // false
 * ```
 * @internal
 */
export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}
