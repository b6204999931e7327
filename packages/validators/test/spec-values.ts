/**
 * Values built from the spec schemas with fast-check, for the property tests: `validValue` builds values
 * the schema accepts by construction (every required property, some optional ones, each union branch,
 * recursion through TypeTag/StructTag bounded), and `mutate` breaks them in the ways the issues name
 * (a dropped key, a wrong type, a u8 of 256, a negative or fractional integer, an extra key, two keys in a
 * one-key union, an unknown enum string or union tag, another kind's tag, a hex near-miss, a bad TypeTag
 * at any depth).
 *
 * Integers stay within Number.MAX_SAFE_INTEGER: above it our validators flag u64/int64 fields with
 * `unsafeInteger` while plain JSON Schema accepts them (tested on its own, see differential.perf.test.ts).
 */
import fc from 'fast-check';
import { loadSpecs } from '../../../tools/gen/src/specs.ts';
import { collect } from '../../../tools/gen/src/validators/collect.ts';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = Record<string, unknown>;

/** Every schema of both specs by exported name, `$ref`s as `#/$defs/<name>` (as the generator sees them). */
export const specDefs: Readonly<Record<string, Schema>> = Object.fromEntries(
  collect(loadSpecs()).schemas.map((s) => [s.name, s.schema]),
);

/** How deep `$ref`s are followed before only the non-recursive forms are built (TypeTag strings, no type_args). */
const MAX_REF_DEPTH = 6;
const WIDE = new Set(['uint64', 'int64']);

const small = <T>(arb: fc.Arbitrary<T>, max = 3) => fc.array(arb, { maxLength: max });
const anyJson: fc.Arbitrary<Json> = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;
const openObject: fc.Arbitrary<Json> = fc.dictionary(fc.string({ maxLength: 6 }), anyJson, { maxKeys: 3 });

function refName(s: Schema): string | undefined {
  return typeof s.$ref === 'string' ? s.$ref.replace('#/$defs/', '') : undefined;
}

/** Whether a schema can be built without following a `$ref` back into recursion (a TypeTag string, an empty array). */
function isLeafBranch(s: unknown): boolean {
  return typeof s === 'object' && s !== null && (s as Schema).type === 'string';
}

function integer(s: Schema): fc.Arbitrary<number> {
  const lo = typeof s.minimum === 'number' ? Math.max(s.minimum, -Number.MAX_SAFE_INTEGER) : -Number.MAX_SAFE_INTEGER;
  const hi = typeof s.maximum === 'number' ? Math.min(s.maximum, Number.MAX_SAFE_INTEGER) : Number.MAX_SAFE_INTEGER;
  const near = fc.integer({ min: Math.max(lo, -1000), max: Math.min(hi, 1000) });
  const edges = fc.constantFrom(lo, hi);
  // u64/int64 fields: anything up to 2^53-1, the edge included
  return WIDE.has(String(s.format)) || hi - lo > 2 ** 31 ? fc.oneof(near, edges, fc.integer({ min: lo, max: hi })) : fc.oneof(near, edges);
}

function ofType(type: string, s: Schema, depth: number): fc.Arbitrary<Json> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integer(s);
    case 'number':
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer());
    case 'string':
      return typeof s.pattern === 'string' ? fc.stringMatching(new RegExp(s.pattern, 'u')) : fc.string({ maxLength: 8 });
    case 'array': {
      if (Array.isArray(s.prefixItems)) return fc.tuple(...s.prefixItems.map((p) => valueOf(p, depth))) as fc.Arbitrary<Json>;
      const items = s.items === undefined ? anyJson : valueOf(s.items, depth);
      return depth >= MAX_REF_DEPTH ? fc.constant([]) : small(items);
    }
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const extra = s.additionalProperties;
      // A map (the v4 committees' members by identity): a few keys, each value of its schema.
      if (Object.keys(props).length === 0 && typeof extra === 'object' && extra !== null) {
        return depth >= MAX_REF_DEPTH ? fc.constant({}) : (fc.dictionary(fc.string({ maxLength: 8 }), valueOf(extra, depth), { maxKeys: 3 }) as fc.Arbitrary<Json>);
      }
      if (Object.keys(props).length === 0) return openObject;
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      const model: Record<string, fc.Arbitrary<Json>> = {};
      for (const [k, v] of Object.entries(props)) model[k] = valueOf(v, depth);
      return fc.record(model, { requiredKeys: required }) as fc.Arbitrary<Json>;
    }
    default:
      throw new Error(`spec-values: type ${type} is not supported`);
  }
}

const byRef = new Map<string, fc.Arbitrary<Json>>();

/** A value the schema accepts (the specs' keywords only: the generator's test of that is the agreement itself). */
export function valueOf(schema: unknown, depth = 0): fc.Arbitrary<Json> {
  if (schema === true || schema === undefined) return anyJson;
  if (typeof schema !== 'object' || schema === null) throw new Error('spec-values: false schema');
  const s = schema as Schema;
  const ref = refName(s);
  if (ref !== undefined) {
    const target = specDefs[ref];
    if (!target) throw new Error(`spec-values: unknown $ref ${String(s.$ref)}`);
    // lazily, and once per name and depth: TypeTag and StructTag refer to each other
    const key = `${ref}@${depth + 1}`;
    return fc.constant(null).chain(() => {
      let arb = byRef.get(key);
      if (!arb) byRef.set(key, (arb = valueOf(target, depth + 1)));
      return arb;
    });
  }
  if ('const' in s) return fc.constant(s.const as Json);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as Json[]));
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = s[key];
    if (!Array.isArray(branches)) continue;
    const usable = depth >= MAX_REF_DEPTH && branches.some(isLeafBranch) ? branches.filter(isLeafBranch) : branches;
    return fc.oneof(...usable.map((b) => valueOf(b, depth)));
  }
  if (Array.isArray(s.allOf)) {
    // every branch at once: the objects each builds, merged (the v3 transactions: a v2 one and its tag)
    return fc.tuple(...s.allOf.map((b) => valueOf(b, depth))).map((parts) => Object.assign({}, ...(parts as object[])) as Json);
  }
  if (s.type === undefined) return anyJson;
  const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
  return fc.oneof(...types.map((t) => ofType(t, s, depth)));
}

const byName = new Map<string, fc.Arbitrary<Json>>();

/** Values of the schema of that name (built once: building `stringMatching` arbitraries is slow). */
export function specValue(name: string): fc.Arbitrary<Json> {
  let arb = byName.get(name);
  if (!arb) byName.set(name, (arb = valueOf(specDefs[name])));
  return arb;
}

/** Every location in a value, as a path of keys. */
export function locations(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...locations(v, [...at, i])));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...locations(v, [...at, k]));
  return out;
}

const UNION_KEYS = ['Dkg', 'Move', 'Oracle', 'Resources', 'Modules', 'vector', 'struct', 'U8', 'U16', 'U32', 'U64', 'U128', 'U256', 'Bool', 'Address', 'Vector', 'Bytes', 'Struct', 'String'];

/** The values each mutation kind puts somewhere. */
const POOL = {
  type: [null, true, false, 0, 7, 'x', '', [], {}, [1], { a: 1 }],
  int: [256, -1, 1.5, -0.5, 65_536, 4_294_967_296, 2 ** 53 - 1, -(2 ** 53 - 1), 255, 0],
  string: ['Unknown', 'success', 'SUCCESS', 'u7', 'U8', 'Empty', 'empty', 'vector', 'bool', 'btc-usdt', 'BTC_USDT', '1.', '-1', '1e5', 'automated', 'block_metadata', 'automation_record', 'User'],
  hex: ['0x', '0xg', '0X1', '0x0', '0x00', 'ab', `0x${'a'.repeat(64)}`, `0x${'a'.repeat(65)}`, 'a'.repeat(64), 'a'.repeat(65), 'ab\n', '0x12 ', ' 0x12', '0xé', '00x1', 'x'],
  typeTag: ['u7', 'U8', 8, { vector: 'u7' }, { vector: { vector: 8 } }, { struct: {} }, { struct: { address: '0x1', module: 'm', name: 'n', type_args: ['u7'] } }, { vector: 'u8', struct: 'u8' }, {}],
  value: [{ U8: 256 }, { U64: 1 }, { U64: '-1' }, { Bytes: '0x0' }, { Address: '0xg' }, { Vector: [1] }, { Struct: [] }, { Bool: 'true' }],
} as const;

/** Mutation kinds, each as likely as the others. */
export const MUTATIONS = ['drop', 'type', 'int', 'extra', 'unionKey', 'string', 'hex', 'typeTag', 'moveValue'] as const;
export type MutationKind = (typeof MUTATIONS)[number];
export type Mutation = { kind: MutationKind; at: number; pick: number };

export const mutation: fc.Arbitrary<Mutation> = fc.record({ kind: fc.constantFrom(...MUTATIONS), at: fc.nat(), pick: fc.nat() });

const nth = <T>(list: readonly T[], n: number): T => list[n % list.length]!;

/** The value with one mutation applied at one of its locations (a structured clone; the input is kept). */
export function mutate(value: Json, m: Mutation): Json {
  const copy = structuredClone(value);
  const places = locations(copy);
  // some kinds need an object or a string at the place: take the first such place from `at` on
  const fits = (v: unknown): boolean => {
    switch (m.kind) {
      case 'drop':
      case 'extra':
      case 'unionKey':
        return v !== null && typeof v === 'object' && !Array.isArray(v);
      case 'string':
      case 'hex':
        return typeof v === 'string';
      case 'int':
        return typeof v === 'number';
      default:
        return true;
    }
  };
  const get = (path: (string | number)[]): unknown => path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], copy);
  let path: (string | number)[] | undefined;
  for (let i = 0; i < places.length && path === undefined; i++) {
    const candidate = places[(m.at + i) % places.length]!;
    if (fits(get(candidate))) path = candidate;
  }
  if (path === undefined) path = places[m.at % places.length]!;
  const target = get(path);
  const set = (v: Json): Json => {
    if (path.length === 0) return v;
    (get(path.slice(0, -1)) as Record<string | number, Json>)[path[path.length - 1]!] = v;
    return copy;
  };
  const obj = target as Record<string, Json>;
  switch (m.kind) {
    case 'drop': {
      const keys = fits(target) ? Object.keys(obj) : [];
      if (keys.length > 0) Reflect.deleteProperty(obj, nth(keys, m.pick));
      return copy;
    }
    case 'extra':
      // an own property, as JSON.parse makes it (`obj.__proto__ = v` would set the prototype instead)
      if (fits(target)) {
        Object.defineProperty(obj, nth(['extra', 'x', '__proto__', 'constructor', 'cursor'], m.pick), {
          value: nth(POOL.type, m.pick),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return copy;
    case 'unionKey':
      if (fits(target)) obj[nth(UNION_KEYS, m.pick)] = nth([...POOL.type, 'Success', 'u8', { gas_used: 1, events: [], vm_status: 'x' }], m.pick);
      return copy;
    case 'type':
      return set(nth(POOL.type, m.pick) as Json);
    case 'int':
      return set(nth(POOL.int, m.pick));
    case 'string':
      return set(nth(POOL.string, m.pick));
    case 'hex':
      return set(nth(POOL.hex, m.pick));
    case 'typeTag':
      return set(structuredClone(nth(POOL.typeTag, m.pick)) as Json);
    case 'moveValue':
      return set(structuredClone(nth(POOL.value, m.pick)) as Json);
  }
}
