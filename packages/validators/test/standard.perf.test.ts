/**
 * `@x/validators/standard` on generated values: on values fast-check builds from the specs and mutates,
 * a Standard Schema's `validate` gives `validateX`'s verdict and issues (paths as keys), in every
 * reading. A `perf` project file (`pnpm test:perf`): a property run of a second of CPU; the tables of
 * fixtures and rejections are standard.test.ts's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { standardSchema } from '../src/standard.ts';
import { exportedSchemaNames, fns } from './helpers.js';
import { type Json, mutate, mutation, specValue } from './spec-values.js';
import { expected, OPTIONS, pointerOf, run } from './standard-results.ts';

describe('validate', () => {
  it('property: on values built from the specs and mutated, the same verdict and issues as validateX in every reading', () => {
    const names = exportedSchemaNames;
    const sample = fc.constantFrom(...names).chain((name) =>
      fc.tuple(fc.constant(name), specValue(name), fc.array(mutation, { minLength: 1, maxLength: 2 }), fc.constantFrom(...OPTIONS)),
    );
    let rejected = 0;
    fc.assert(
      fc.property(sample, ([name, valid, mutations, options]) => {
        const value = mutations.reduce<Json>((v, m) => mutate(v, m), valid);
        const reference = fns(name).validate(value, options);
        const result = run(standardSchema(name as never, options), value);
        if (reference.ok) {
          expect(result).toStrictEqual({ value });
          return;
        }
        rejected++;
        expect(result).toStrictEqual({ issues: expected(reference.issues, value) });
        expect(result.issues!.map((i) => pointerOf(i.path!))).toEqual(reference.issues.map((i) => i.path));
        // every number in a path indexes an array of the value, every string a key of an object (or a missing one)
        for (const issue of result.issues!) {
          let at: unknown = value;
          for (const key of issue.path!) {
            if (typeof key === 'number') expect(Array.isArray(at)).toBe(true);
            else expect(Array.isArray(at)).toBe(false);
            at = at !== null && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[key] : undefined;
          }
        }
      }),
      { numRuns: 2_000, seed: 20_251_125 },
    );
    expect(rejected).toBeGreaterThan(500);
  });
});
