import { describe, expect, it } from 'vitest';
import { fixtures } from './fixtures.js';
import { exportedSchemaNames, fns, specSchemaNames } from './helpers.js';

describe('every record of both specs', () => {
  it('has validateX/isX/assertX for every schema of both specs, and a fixture for each', () => {
    expect(exportedSchemaNames).toEqual(specSchemaNames());
    expect(Object.keys(fixtures).sort()).toEqual(exportedSchemaNames);
    for (const name of exportedSchemaNames) expect(() => fns(name)).not.toThrow();
  });

  const cases = Object.entries(fixtures).flatMap(([name, value]) =>
    [false, true].map((strict) => ({ name, value, strict })),
  );
  it.each(cases)('$name is valid (strict: $strict)', ({ name, value, strict }) => {
    const { validate, is, assert } = fns(name);
    for (const allErrors of [false, true]) {
      const result = validate(value, { strict, allErrors });
      expect(result).toEqual({ ok: true, value });
      if (result.ok) expect(result.value).toBe(value);
    }
    expect(is(value, { strict })).toBe(true);
    expect(() => assert(value, { strict })).not.toThrow();
  });

  it('does not modify the value it validates', () => {
    const value = structuredClone(fixtures.AccountStatementV2);
    fns('AccountStatementV2').validate(value, { strict: true, allErrors: true });
    expect(value).toEqual(fixtures.AccountStatementV2);
  });
});
