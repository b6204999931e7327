/**
 * JSON of a request read as a Move value of a given type, as a node reads view function arguments and
 * table keys: u64, u128 and u256 as decimal strings, u8 to u32 as numbers (or decimal strings), bool as a
 * boolean, an address as hex, `vector<u8>` as `0x` hex, other vectors as arrays, `0x1::string::String` as
 * a string, `0x1::option::Option<T>` as `{ "vec": [] | [v] }`. The reading follows the type, whose depth
 * `parseTypeTag` bounds, never the JSON's own nesting, and touches each JSON value once.
 */
import { canonicalAddress } from '@x/common';
import { V, structTagToString, typeTagToString, type MoveVal, type TypeTag } from './move.ts';

export type Read = { ok: true; value: MoveVal } | { ok: false; why: string };

const MAX: Record<'u8' | 'u16' | 'u32' | 'u64' | 'u128' | 'u256', bigint> = {
  u8: 0xffn,
  u16: 0xffffn,
  u32: 0xffffffffn,
  u64: (1n << 64n) - 1n,
  u128: (1n << 128n) - 1n,
  u256: (1n << 256n) - 1n,
};
/** At most 78 digits: u256's maximum has 78, so longer text is out of range without building a bigint of it. */
const DECIMAL = /^[0-9]{1,78}$/;
const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;

/** What a JSON value is, for a message (never the value itself, which may be megabytes). */
const kindOf = (json: unknown): string => (json === null ? 'null' : Array.isArray(json) ? 'an array' : typeof json === 'object' ? 'an object' : `a ${typeof json}`);

function integer(type: keyof typeof MAX, json: unknown): Read {
  const small = type === 'u8' || type === 'u16' || type === 'u32';
  let n: bigint | undefined;
  if (typeof json === 'string' && DECIMAL.test(json)) n = BigInt(json);
  // A JSON number is exact only for the small types; u64 and up must be strings, as a node requires.
  else if (small && typeof json === 'number' && Number.isInteger(json) && json >= 0) n = BigInt(json);
  if (n === undefined || n > MAX[type]) {
    return { ok: false, why: `a ${type} is ${small ? 'a number or ' : ''}a decimal string from 0 to ${MAX[type]}, got ${typeof json === 'string' ? `'${json.slice(0, 80)}'` : kindOf(json)}` };
  }
  return { ok: true, value: small ? { t: type, v: Number(n) } : { t: type, v: n.toString() } };
}

/** `json` read as a Move value of `type`. */
export function readMove(type: TypeTag, json: unknown): Read {
  if (typeof type === 'string') {
    switch (type) {
      case 'bool':
        return typeof json === 'boolean' ? { ok: true, value: V.bool(json) } : { ok: false, why: `a bool is true or false, got ${kindOf(json)}` };
      case 'address': {
        const address = typeof json === 'string' ? canonicalAddress(json) : undefined;
        return address === undefined ? { ok: false, why: `an address is 1 to 64 hex digits with or without 0x, got ${kindOf(json)}` } : { ok: true, value: V.address(address) };
      }
      case 'signer':
        return { ok: false, why: 'a signer cannot be passed: a view function runs without one' };
      default:
        return integer(type, json);
    }
  }
  if ('vector' in type) {
    if (type.vector === 'u8') {
      return typeof json === 'string' && HEX_BYTES.test(json) ? { ok: true, value: V.bytes(json.slice(2).toLowerCase()) } : { ok: false, why: `a vector<u8> is 0x and hex bytes, got ${kindOf(json)}` };
    }
    if (!Array.isArray(json)) return { ok: false, why: `a ${typeTagToString(type)} is an array, got ${kindOf(json)}` };
    const items: MoveVal[] = [];
    for (const item of json as unknown[]) {
      const read = readMove(type.vector, item);
      if (!read.ok) return read;
      items.push(read.value);
    }
    return { ok: true, value: V.vector(type.vector, items) };
  }
  const name = structTagToString(type.struct);
  if (name === '0x1::string::String') return typeof json === 'string' ? { ok: true, value: V.string(json) } : { ok: false, why: `a 0x1::string::String is a string, got ${kindOf(json)}` };
  const { address, module, name: struct, type_args: args } = type.struct;
  if (address === '0x1' && module === 'option' && struct === 'Option' && args.length === 1) {
    const inner = args[0] as TypeTag;
    const vec = typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as { vec?: unknown }).vec : undefined;
    if (!Array.isArray(vec) || vec.length > 1) return { ok: false, why: `an ${name} is { "vec": [] } or { "vec": [value] }, got ${kindOf(json)}` };
    if (vec.length === 0) return { ok: true, value: V.option(inner, null) };
    const read = readMove(inner, vec[0]);
    return read.ok ? { ok: true, value: V.option(inner, read.value) } : read;
  }
  return { ok: false, why: `this stub reads no ${name} from JSON (primitives, addresses, vectors, strings and options only)` };
}

/** Whether two Move values are the same value (a table key found by its value). */
export function sameValue(a: MoveVal, b: MoveVal): boolean {
  if (a.t !== b.t) return false;
  switch (a.t) {
    case 'vector': {
      const items = (b as typeof a).items;
      return a.items.length === items.length && a.items.every((x, i) => sameValue(x, items[i] as MoveVal));
    }
    case 'option': {
      const v = (b as typeof a).v;
      return a.v === null || v === null ? a.v === v : sameValue(a.v, v);
    }
    case 'struct':
      return false;
    default:
      return a.v === (b as typeof a).v;
  }
}
