/**
 * Move addresses, type tags and values of the synthetic chain, with the renderings the document defines:
 * TypeTag/StructTag records, type strings, v1 `MoveValue`s and the JSON mapping of v2 `MoveResource.data`.
 */
import { canonicalAddress } from '@x/common';
import type { components } from '@x/node-types';

export type StructTag = components['schemas']['StructTag'];
export type TypeTag = components['schemas']['TypeTag'];
export type MoveValueV1 = components['schemas']['MoveValue'];
export type PrimitiveTypeTag = Extract<TypeTag, string>;

const PRIMITIVES: ReadonlySet<string> = new Set(['bool', 'u8', 'u16', 'u32', 'u64', 'u128', 'u256', 'address', 'signer']);

// ---------------------------------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------------------------------

/** A Move identifier (a module name). */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The document's `resource_type` pattern. */
export const RESOURCE_TYPE = /^0x[0-9a-zA-Z:_<>]+$/;

/** The 32 bytes of an address, as 64 hex digits. */
export function addressHex64(canonical: string): string {
  return canonical.slice(2).padStart(64, '0');
}

// ---------------------------------------------------------------------------------------------------------
// Type tags
// ---------------------------------------------------------------------------------------------------------

export function structTag(address: string, module: string, name: string, typeArgs: TypeTag[] = []): StructTag {
  return { address, module, name, type_args: typeArgs };
}

export const vec = (t: TypeTag): TypeTag => ({ vector: t });
export const st = (t: StructTag): TypeTag => ({ struct: t });

export function typeTagToString(t: TypeTag): string {
  if (typeof t === 'string') return t;
  if ('vector' in t) return `vector<${typeTagToString(t.vector)}>`;
  return structTagToString(t.struct);
}

/** `0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>`; several type arguments are joined by `, `. */
export function structTagToString(t: StructTag): string {
  const base = `${t.address}::${t.module}::${t.name}`;
  return t.type_args.length === 0 ? base : `${base}<${t.type_args.map(typeTagToString).join(', ')}>`;
}

/**
 * How deep a parsed type may nest (`vector<`, a struct's `<`). The parser recurses once a level, and a
 * resource type comes from a request path: thousands of levels overflowed the stack (a 500). Move's own
 * type tags nest at most 8 deep (MAX_TYPE_TAG_NESTING of aptos-core's move-core-types), so no real type
 * comes near this.
 */
export const MAX_TYPE_DEPTH = 64;

/**
 * Parses a Move type string into a TypeTag, canonicalising addresses (`0x0001::m::S` → `0x1::m::S`).
 * Returns `undefined` for text that is not a type, or that nests deeper than `MAX_TYPE_DEPTH`.
 */
export function parseTypeTag(text: string): TypeTag | undefined {
  let i = 0;
  const s = text;
  const skipWs = (): void => {
    while (s[i] === ' ') i++;
  };
  const ident = (): string | undefined => {
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i));
    if (m === null) return undefined;
    i += m[0].length;
    return m[0];
  };
  const expect = (lit: string): boolean => {
    skipWs();
    if (s.startsWith(lit, i)) {
      i += lit.length;
      return true;
    }
    return false;
  };
  const typeArgs = (depth: number): TypeTag[] | undefined => {
    const args: TypeTag[] = [];
    if (!expect('<')) return args;
    for (;;) {
      const a = parse(depth + 1);
      if (a === undefined) return undefined;
      args.push(a);
      if (expect(',')) continue;
      if (expect('>')) return args;
      return undefined;
    }
  };
  const parse = (depth: number): TypeTag | undefined => {
    if (depth > MAX_TYPE_DEPTH) return undefined;
    skipWs();
    const addr = /^0x[0-9a-fA-F]{1,64}/.exec(s.slice(i));
    if (addr !== null) {
      i += addr[0].length;
      const address = canonicalAddress(addr[0]);
      if (address === undefined || !expect('::')) return undefined;
      const module = ident();
      if (module === undefined || !expect('::')) return undefined;
      const name = ident();
      if (name === undefined) return undefined;
      const args = typeArgs(depth);
      if (args === undefined) return undefined;
      return { struct: structTag(address, module, name, args) };
    }
    const word = ident();
    if (word === undefined) return undefined;
    if (word === 'vector') {
      if (!expect('<')) return undefined;
      const inner = parse(depth + 1);
      if (inner === undefined || !expect('>')) return undefined;
      return { vector: inner };
    }
    return PRIMITIVES.has(word) ? (word as PrimitiveTypeTag) : undefined;
  };
  const result = parse(0);
  skipWs();
  return result !== undefined && i === s.length ? result : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------------------

/** A typed Move value of the synthetic chain. */
export type MoveVal =
  | { t: 'bool'; v: boolean }
  | { t: 'u8' | 'u16' | 'u32'; v: number }
  | { t: 'u64' | 'u128' | 'u256'; v: string }
  | { t: 'address'; v: string }
  /** `0x1::string::String` */
  | { t: 'string'; v: string }
  /** `vector<u8>`, hex digits without prefix */
  | { t: 'bytes'; v: string }
  | { t: 'vector'; elem: TypeTag; items: MoveVal[] }
  /** `0x1::option::Option<T>`: `v` is `null` for none */
  | { t: 'option'; inner: TypeTag; v: MoveVal | null }
  | { t: 'struct'; tag: StructTag; fields: Array<[string, MoveVal]> };

export const STRING_TAG = structTag('0x1', 'string', 'String');
export const optionTag = (inner: TypeTag): StructTag => structTag('0x1', 'option', 'Option', [inner]);

export const V = {
  bool: (v: boolean): MoveVal => ({ t: 'bool', v }),
  u8: (v: number): MoveVal => ({ t: 'u8', v }),
  u16: (v: number): MoveVal => ({ t: 'u16', v }),
  u32: (v: number): MoveVal => ({ t: 'u32', v }),
  u64: (v: number | bigint | string): MoveVal => ({ t: 'u64', v: String(v) }),
  u128: (v: number | bigint | string): MoveVal => ({ t: 'u128', v: String(v) }),
  u256: (v: number | bigint | string): MoveVal => ({ t: 'u256', v: String(v) }),
  address: (v: string): MoveVal => ({ t: 'address', v }),
  string: (v: string): MoveVal => ({ t: 'string', v }),
  bytes: (hex: string): MoveVal => ({ t: 'bytes', v: hex }),
  vector: (elem: TypeTag, items: MoveVal[]): MoveVal => ({ t: 'vector', elem, items }),
  option: (inner: TypeTag, v: MoveVal | null): MoveVal => ({ t: 'option', inner, v }),
  struct: (tag: StructTag, fields: Array<[string, MoveVal]>): MoveVal => ({ t: 'struct', tag, fields }),
};

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * The document's JSON mapping (Struct fields in v1, `MoveResource.data` in v2): bool a boolean; u8..u32
 * integers; u64..u256 strings; address a hex string; vector an array except vector<u8>, a `0x` hex string;
 * struct an object; std string a plain string. An Option is the struct it is in Move: `{ vec: [..] }`.
 */
export function toJson(v: MoveVal): Json {
  switch (v.t) {
    case 'bool':
    case 'u8':
    case 'u16':
    case 'u32':
    case 'u64':
    case 'u128':
    case 'u256':
    case 'address':
    case 'string':
      return v.v;
    case 'bytes':
      return `0x${v.v}`;
    case 'vector':
      return v.items.map(toJson);
    case 'option':
      return { vec: v.v === null ? [] : [toJson(v.v)] };
    case 'struct':
      return fieldsToJson(v.fields);
  }
}

export function fieldsToJson(fields: Array<[string, MoveVal]>): { [k: string]: Json } {
  const out: { [k: string]: Json } = {};
  for (const [name, value] of fields) out[name] = toJson(value);
  return out;
}

/**
 * A top-level field as a v1 `MoveValue` (or `null`): an Option field is its inner value's MoveValue when
 * some and `null` when none; `Vector` items are strings (a string element as is, any other element as its
 * JSON text); vector<u8> is `Bytes`; a struct is `Struct` with the JSON mapping inside.
 */
export function toMoveValueV1(v: MoveVal): MoveValueV1 | null {
  switch (v.t) {
    case 'bool':
      return { Bool: v.v };
    case 'u8':
      return { U8: v.v };
    case 'u16':
      return { U16: v.v };
    case 'u32':
      return { U32: v.v };
    case 'u64':
      return { U64: v.v };
    case 'u128':
      return { U128: v.v };
    case 'u256':
      return { U256: v.v };
    case 'address':
      return { Address: v.v };
    case 'string':
      return { String: v.v };
    case 'bytes':
      return { Bytes: `0x${v.v}` };
    case 'vector':
      return {
        Vector: v.items.map((item) => {
          const j = toJson(item);
          return typeof j === 'string' ? j : JSON.stringify(j);
        }),
      };
    case 'option':
      return v.v === null ? null : toMoveValueV1(v.v);
    case 'struct':
      return { Struct: fieldsToJson(v.fields) };
  }
}
