/**
 * Standard JSON Schema on generated values: every target of every schema's `~standard.jsonSchema`,
 * compiled by ajv, judges values fast-check builds from the spec schemas and mutates as
 * `~standard.validate` does, in every reading (integers within 2^53-1: above it the validators flag
 * `unsafeInteger`, which JSON Schema cannot say). A `perf` project file (`pnpm test:perf`): a property run
 * of seconds of CPU; the fixtures and the schemas' own shape are standard-json-schema.test.ts's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { standardSchema } from '../src/standard.ts';
import { exportedSchemaNames } from './helpers.js';
import { judges, READINGS, type Std, valid } from './json-schema-judges.ts';
import { type Json, mutate, mutation, specValue } from './spec-values.js';

describe('~standard.jsonSchema', () => {
  it('property: every target judges values built from the specs and mutated as validate does, in every reading', () => {
    const sample = fc
      .constantFrom(...exportedSchemaNames)
      .chain((name) => fc.tuple(fc.constant(name), specValue(name), fc.array(mutation, { maxLength: 2 }), fc.constantFrom(...READINGS)));
    let invalid = 0;
    fc.assert(
      fc.property(sample, ([name, built, mutations, r]) => {
        const value = mutations.reduce<Json>((v, m) => mutate(v, m), built);
        const verdict = valid(standardSchema(name as never, r.options) as Std, value);
        if (!verdict) invalid++;
        for (const [target, judge] of judges(name, r)) if (judge) expect(judge(value), `${name} (${r.label}) ${target}`).toBe(verdict);
      }),
      { numRuns: 3_000, seed: 20_251_126 },
    );
    expect(invalid).toBeGreaterThan(1_000);
  });
});
