/**
 * Differential testing: a second JSON Schema implementation that is not ajv, @cfworker/json-schema
 * (draft 2020-12, an interpreter with its own $ref resolution, regular expressions from the spec's
 * patterns), validates against the schemas taken from the specs as written — `$ref`s resolved, the
 * strict profile's `additionalProperties: false` added by the generator's own `closeObjects` — and must
 * agree with @x/validators on valid/invalid, in both profiles, for every value fast-check builds from
 * the spec schemas: valid ones by construction and mutated ones (see spec-values.ts).
 *
 * What differs on purpose, and is tested here on its own: a u64/int64 above 2^53-1 is valid JSON
 * Schema but flagged by @x/validators (`unsafeInteger`), so the agreement property keeps integers
 * within Number.MAX_SAFE_INTEGER.
 *
 * VALIDATORS_DIFF_RUNS (default 10000) and VALIDATORS_DIFF_SEED (default fixed; `random` for a new one
 * each run, printed on failure) make longer local runs:
 *   VALIDATORS_DIFF_RUNS=200000 VALIDATORS_DIFF_SEED=random npx vitest run --project 'perf*' packages/validators/test/differential
 * A `perf` project file (`pnpm test:perf`): seconds of CPU, not a unit check.
 */
import { Validator } from '@cfworker/json-schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closeObjects, mergeAllOf } from '../../../tools/gen/src/validators/transform.ts';
import { fns } from './helpers.js';
import { type Json, MUTATIONS, type Mutation, locations, mutate, mutation, specDefs, specValue } from './spec-values.js';

const RUNS = Number(process.env.VALIDATORS_DIFF_RUNS ?? 10_000);
const SEED = process.env.VALIDATORS_DIFF_SEED === 'random' ? undefined : Number(process.env.VALIDATORS_DIFF_SEED ?? 20_241_122);
const names = Object.keys(specDefs);
/** ~0.4 ms a value here; room for a loaded machine and for long local runs. */
const TIMEOUT_MS = Math.max(60_000, RUNS * 3);

type Profile = 'lenient' | 'strict';
const PROFILES: readonly Profile[] = ['lenient', 'strict'];

/**
 * cfworker validators of every spec schema, per profile: lenient, the schemas as written (`allOf` and
 * all); strict, closed by `closeObjects` after `mergeAllOf` made each `allOf` of object schemas one
 * object schema (closing the branches one by one would reject every value).
 */
function reference(profile: Profile): Record<string, Validator> {
  const $defs: Record<string, unknown> = {};
  const merged = mergeAllOf(specDefs);
  for (const [name, schema] of Object.entries(specDefs)) $defs[name] = profile === 'strict' ? closeObjects(merged[name], name) : schema;
  const root = { $id: 'urn:x-validators-spec', $defs };
  const out: Record<string, Validator> = {};
  for (const name of names) {
    const v = new Validator({ $ref: `urn:x-validators-spec#/$defs/${name}` }, '2020-12', true);
    v.addSchema(root);
    out[name] = v;
  }
  return out;
}
const cf = { lenient: reference('lenient'), strict: reference('strict') };

/** A schema name, a value built from it, and up to two mutations (none in about one case of five). */
const sample = fc
  .constantFrom(...names)
  .chain((name) =>
    fc.tuple(fc.constant(name), specValue(name), fc.oneof({ weight: 1, arbitrary: fc.constant([]) }, { weight: 4, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 2 }) })),
  );

function applied(value: Json, mutations: readonly Mutation[]): Json {
  return mutations.reduce(mutate, value);
}

describe('@x/validators agrees with @cfworker/json-schema on the spec schemas', () => {
  it('builds references from both specs', () => {
    expect(names).toContain('TransactionOutput');
    expect(names).toContain('Candle');
    expect(cf.strict.AccountData!.validate({ sequence_number: 1, authentication_key: '0x1', x: 1 }).valid).toBe(false);
    expect(cf.lenient.AccountData!.validate({ sequence_number: 1, authentication_key: '0x1', x: 1 }).valid).toBe(true);
  });

  it(`valid and mutated values: the same verdict in both profiles (${RUNS} values)`, { timeout: TIMEOUT_MS }, () => {
    const seen = { valid: 0, invalid: 0, strictOnly: 0, kinds: new Set<string>(), keywords: new Set<string>(), deepTypeTag: 0 };
    fc.assert(
      fc.property(sample, ([name, built, mutations]) => {
        const value = applied(built, mutations);
        const { validate, is } = fns(name);
        for (const profile of PROFILES) {
          const strict = profile === 'strict';
          const expected = cf[profile][name]!.validate(value).valid;
          const got = validate(value, { strict });
          if (got.ok !== expected) {
            throw new Error(
              `${name} (${profile}): cfworker says ${expected ? 'valid' : 'invalid'}, @x/validators ${got.ok ? 'valid' : `invalid: ${JSON.stringify(got.issues)}`}\n  value: ${JSON.stringify(value)}`,
            );
          }
          expect(is(value, { strict })).toBe(expected);
          expect(validate(value, { strict, allErrors: true }).ok).toBe(expected);
        }
        if (mutations.length === 0) expect(cf.strict[name]!.validate(value).valid, 'a built value is valid').toBe(true);
        const lenientOk = cf.lenient[name]!.validate(value).valid;
        const strictOk = cf.strict[name]!.validate(value).valid;
        if (strictOk) seen.valid++;
        else seen.invalid++;
        if (lenientOk && !strictOk) seen.strictOnly++;
        for (const m of mutations) seen.kinds.add(m.kind);
        const all = validate(value, { strict: true, allErrors: true });
        for (const i of all.ok ? [] : all.issues) {
          seen.keywords.add(i.keyword);
          if (/(\/(vector|struct|type_args\/\d+)){3}/.test(i.path)) seen.deepTypeTag++;
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // the mix is worth something: many of each verdict, the profiles differ often, every mutation ran
    expect(seen.valid + seen.invalid).toBe(RUNS);
    expect(seen.valid).toBeGreaterThan(RUNS * 0.2);
    expect(seen.invalid).toBeGreaterThan(RUNS * 0.3);
    expect(seen.strictOnly).toBeGreaterThan(RUNS * 0.02);
    expect([...seen.kinds].sort()).toEqual([...MUTATIONS].sort());
    // the mutations reach what they aim at: every kind of issue, TypeTag errors three levels down
    for (const keyword of ['required', 'type', 'minimum', 'maximum', 'enum', 'pattern', 'additionalProperties', 'maxProperties', 'minProperties', 'propertyNames']) {
      expect(seen.keywords, keyword).toContain(keyword);
    }
    expect(seen.deepTypeTag).toBeGreaterThan(10);
  });

  it('the one deliberate difference: a u64/int64 above 2^53-1 is valid JSON Schema, and unsafeInteger here', () => {
    let flagged = 0;
    // doubles from 2^53 to 2^64 are all integers, all beyond Number.MAX_SAFE_INTEGER
    const big = fc.double({ min: 2 ** 53, max: 2 ** 64, noNaN: true });
    fc.assert(
      fc.property(
        fc.constantFrom(...names).chain((name) => fc.tuple(fc.constant(name), specValue(name), fc.nat(), big)),
        ([name, built, at, n]) => {
          const numbers = locations(built).filter((p) => typeof p.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], built) === 'number');
          if (numbers.length === 0) return;
          const path = numbers[at % numbers.length]!;
          const value = structuredClone(built);
          if (path.length === 0) return;
          const parent = path.slice(0, -1).reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], value) as Record<string | number, Json>;
          parent[path[path.length - 1]!] = n;
          for (const profile of PROFILES) {
            const expected = cf[profile][name]!.validate(value).valid;
            const got = fns(name).validate(value, { strict: profile === 'strict', allErrors: true });
            if (!expected) {
              // a u8, u16 or u32: out of range for both
              expect(got.ok).toBe(false);
            } else if (!got.ok) {
              // a u64/int64 field: exactly one issue, unsafeInteger, at the field
              expect(got.issues).toEqual([expect.objectContaining({ keyword: 'unsafeInteger', path: `/${path.join('/')}` })]);
              flagged++;
            }
          }
        },
      ),
      { numRuns: 1_000, seed: SEED },
    );
    expect(flagged).toBeGreaterThan(100);
  });
});
