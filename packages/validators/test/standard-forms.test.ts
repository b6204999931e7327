/**
 * A schema of `@x/validators/standard` hands out JSON Schemas that `pnpm gen` converted (so it bundles no
 * converter): for every exported schema and every target they are what the converter makes of the same
 * reading at run time (`standardSchema(name)`), a new object on every call, and the same errors.
 */
import { describe, expect, it } from 'vitest';
import * as standard from '@x/validators/standard';
import { JSON_SCHEMA_TARGETS, standardSchema, type SchemaName, type StandardValidator } from '@x/validators/standard';

const isSchema = (v: unknown): v is StandardValidator<unknown> => typeof v === 'object' && v !== null && '~standard' in v;
const names = Object.entries(standard)
  .filter(([, v]) => isSchema(v))
  .map(([name]) => name as SchemaName);

/** The JSON Schema of a target, or the message of the error converting to it. */
function formOf(schema: StandardValidator<unknown>, target: string): unknown {
  try {
    return schema['~standard'].jsonSchema.output({ target });
  } catch (error) {
    return { threw: (error as Error).message };
  }
}

describe('JSON Schemas converted by pnpm gen', () => {
  it('covers every exported schema', () => {
    expect(names.length).toBeGreaterThan(50);
  });

  it.each(names)('%s: each target as standardSchema converts it at run time', (name) => {
    const generated = standard[name] as StandardValidator<unknown>;
    const converted = standardSchema(name);
    for (const target of [...JSON_SCHEMA_TARGETS, 'draft-04']) expect(formOf(generated, target), target).toStrictEqual(formOf(converted, target));
  });

  it('hands out a new object on every call', () => {
    const a = standard.AccountData['~standard'].jsonSchema.output({ target: 'draft-2020-12' });
    (a as { mutated?: boolean }).mutated = true;
    expect(standard.AccountData['~standard'].jsonSchema.input({ target: 'draft-2020-12' })).not.toHaveProperty('mutated');
  });

  it('names the targets it knows when asked for another', () => {
    expect(() => standard.Address['~standard'].jsonSchema.output({ target: 'draft-04' })).toThrow(
      'Address: JSON Schema target "draft-04" is not supported (supported: draft-2020-12, draft-07, openapi-3.0)',
    );
  });
});
