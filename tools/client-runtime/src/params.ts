import { InvalidArgumentError } from './errors.js';

/** The constraints of one parameter, as the generated operation table carries them from the spec. */
export type ParamSpec = {
  readonly name: string;
  readonly in: string;
  readonly required: boolean;
  readonly schema: {
    readonly type?: string;
    readonly format?: string;
    readonly minimum?: number;
    readonly maximum?: number;
    readonly pattern?: string;
    readonly default?: unknown;
  };
};

const U64_MAX = 18446744073709551615n;
const patterns = new Map<string, RegExp>();

/**
 * Checks one value against its parameter's spec constraints and returns it in wire form (a string
 * for u64, which may exceed 2^53-1). Throws `InvalidArgumentError` naming the parameter.
 */
export function checkParam(spec: ParamSpec, value: unknown): string | number | undefined {
  const { name, schema } = spec;
  if (value === undefined || value === null) {
    if (spec.required) throw new InvalidArgumentError(name, 'is required');
    return undefined;
  }
  if (schema.type === 'integer' && schema.format === 'uint64') return u64(name, value);
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
  if (schema.pattern !== undefined) {
    let re = patterns.get(schema.pattern);
    if (!re) patterns.set(schema.pattern, (re = new RegExp(schema.pattern, 'u')));
    if (!re.test(value)) throw new InvalidArgumentError(name, `must match ${schema.pattern}, got ${show(value)}`);
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

/** A u64 given as a safe integer, a bigint or a decimal string, as its decimal string. */
function u64(name: string, value: unknown): string {
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

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
