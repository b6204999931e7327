/**
 * The keyed and tagged encodings of the exclusive unions (and `nullOr` for `anyOf [X, null]`, `hexPattern`
 * for the hex patterns, the merged `allOf`s) must accept exactly what the specs' schemas accept. This
 * compares every generated validator with plain ajv compiling the spec schemas as written (only `$ref`s
 * relinked; strict: each `allOf` of object schemas merged by the generator's `mergeAllOf`, then objects
 * with `properties` closed by its `closeObjects`), on random JSON and on random mutations of the valid
 * fixtures. differential.perf.test.ts does the same against an implementation that is not ajv. Both
 * are `perf` project files (`pnpm test:perf`): property runs of seconds of CPU, not unit checks.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSpecs } from '../../../tools/gen/src/specs.ts';
import { collect } from '../../../tools/gen/src/validators/collect.ts';
import { closeObjects, mergeAllOf } from '../../../tools/gen/src/validators/transform.ts';
import { fixtures } from './fixtures.js';
import { exportedSchemaNames, fns } from './helpers.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = Record<string, unknown>;

function reference(strict: boolean): (name: string, value: unknown) => boolean {
  const { schemas } = collect(loadSpecs());
  const merged = mergeAllOf(Object.fromEntries(schemas.map((s) => [s.name, s.schema])));
  const $defs: Schema = {};
  for (const s of schemas) $defs[s.name] = strict ? closeObjects(merged[s.name], s.name) : s.schema;
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allowUnionTypes: true });
  ajv.addSchema({ $defs }, 'spec');
  return (name, value) => ajv.validate(`spec#/$defs/${name}`, value) as boolean;
}

const KEYS = [
  'Dkg', 'Move', 'Oracle', 'Resources', 'Modules', 'vector', 'struct', 'U8', 'U16', 'U64', 'U256', 'Bool', 'Address',
  'Vector', 'Bytes', 'Struct', 'String', 'gas_used', 'events', 'vm_status', 'address', 'module', 'name', 'type_args',
  'resource', 'modules', 'cursor', 'record', 'result', 'timestamp', 'x', 'txn_type', 'hash', 'status', 'message',
];
const STRINGS = ['Empty', 'Success', 'Fail', 'bool', 'u8', 'u64', 'signer', 'address', '0x1', '0x00', '0x0', '1', '-1.5', 'x', '', 'user', 'automation_record', 'block_metadata'];

const leaf: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom(...STRINGS),
  fc.integer({ min: -3, max: 70_000 }),
  fc.constantFrom(0, 1, 255, 256, 1.5, -1, 4_294_967_296),
  fc.boolean(),
  fc.constant(null),
);
const { value: json } = fc.letrec<{ value: Json; object: Json; array: Json }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('object'), tie('array')),
  object: fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 3 }),
  array: fc.array(tie('value'), { maxLength: 3 }),
}));

/** Every location of a JSON value, as a path of keys. */
function locations(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...locations(v, [...at, i])));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...locations(v, [...at, k]));
  return out;
}

type Edit = { kind: 'replace' | 'delete' | 'add'; key: string; value: Json };
function mutate(value: unknown, path: (string | number)[], edit: Edit): unknown {
  const copy = structuredClone(value) as Json;
  if (path.length === 0) return edit.kind === 'replace' ? edit.value : copy;
  let parent = copy as Record<string | number, Json>;
  for (const p of path.slice(0, -1)) parent = parent[p] as Record<string | number, Json>;
  const last = path[path.length - 1]!;
  if (edit.kind === 'replace') parent[last] = edit.value;
  else if (edit.kind === 'delete' && !Array.isArray(parent)) Reflect.deleteProperty(parent, last);
  const target = parent[last];
  if (edit.kind === 'add' && target && typeof target === 'object' && !Array.isArray(target)) {
    (target as Record<string, Json>)[edit.key] = edit.value;
  }
  return copy;
}

const edit: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom('replace', 'delete', 'add'),
  key: fc.constantFrom(...KEYS),
  value: json,
});

describe.each([false, true])('generated validators accept exactly what the spec schemas accept (strict: %s)', (strict) => {
  const ref = reference(strict);
  const agree = (name: string, value: unknown) => {
    const expected = ref(name, value);
    const { validate, is } = fns(name);
    expect(validate(value, { strict }).ok, `${name} ${JSON.stringify(value)}`).toBe(expected);
    expect(validate(value, { strict, allErrors: true }).ok).toBe(expected);
    expect(is(value, { strict })).toBe(expected);
  };

  it.each(exportedSchemaNames)('%s on random JSON', (name) => {
    fc.assert(fc.property(json, (value) => agree(name, value)), { numRuns: 150, seed: 20_241_119 });
  });

  it.each(exportedSchemaNames)('%s on mutations of its fixture', (name) => {
    const base = fixtures[name];
    const places = locations(base);
    fc.assert(
      fc.property(fc.constantFrom(...places), edit, (path, e) => agree(name, mutate(base, path, e))),
      { numRuns: 150, seed: 20_241_119 },
    );
  });
});
