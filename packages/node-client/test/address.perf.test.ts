/**
 * normalizeAddress on spellings fast-check draws (a fresh seed each run, printed on failure): the
 * canonical address of `@x/common`, whatever the spelling. A `perf` project file (`pnpm test:perf`):
 * fuzzing, not a unit check; the client's table is address.test.ts's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeAddress } from '../src/address.ts';
import { canonicalAddress } from '@x/common';

describe('the client sends what the stubs answer with', () => {
  const hexDigits = fc.stringMatching(/^[0-9a-fA-F]{1,64}$/);
  const spelled = fc.tuple(fc.boolean(), fc.nat(6), hexDigits).map(([prefix, zeros, hex]) => {
    const digits = ('0'.repeat(zeros) + hex).slice(-64);
    return prefix ? `0x${digits}` : digits;
  });

  it('on every spelling of every address', () => {
    fc.assert(
      fc.property(spelled, (input) => {
        const canonical = normalizeAddress(input);
        expect(canonical).toBe(canonicalAddress(input));
        // Canonical is a fixed point, and the same address whatever the spelling.
        expect(normalizeAddress(canonical)).toBe(canonical);
        expect(normalizeAddress(input.toUpperCase().replace(/^0X/, '0x'))).toBe(canonical);
        expect(BigInt(canonical as string)).toBe(BigInt(`0x${input.replace(/^0x/, '')}`));
      }),
      { numRuns: 2000 },
    );
  });
});
