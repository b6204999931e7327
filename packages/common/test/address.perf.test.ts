/**
 * canonicalAddress on spellings fast-check draws (a fresh seed each run, printed on failure): one string
 * for every spelling of an address. A `perf` project file (`pnpm test:perf`): fuzzing, not a unit check;
 * the rule's table is address.test.ts's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalAddress } from '@x/common';

describe('canonicalAddress', () => {
  it('gives one string for every spelling of an address, keeps its value, and is a fixed point', () => {
    const hexDigits = fc.stringMatching(/^[0-9a-fA-F]{1,64}$/);
    const spelled = fc.tuple(fc.boolean(), fc.nat(6), hexDigits).map(([prefix, zeros, hex]) => {
      const digits = ('0'.repeat(zeros) + hex).slice(-64);
      return prefix ? `0x${digits}` : digits;
    });
    fc.assert(
      fc.property(spelled, (input) => {
        const canonical = canonicalAddress(input);
        expect(canonical).toMatch(/^0x([0-9a-f]|[0-9a-f]{64})$/);
        expect(canonicalAddress(canonical as string)).toBe(canonical);
        expect(canonicalAddress(input.toUpperCase().replace(/^0X/, '0x'))).toBe(canonical);
        expect(BigInt(canonical as string)).toBe(BigInt(`0x${input.replace(/^0x/, '')}`));
        expect((canonical as string).length === 3).toBe(BigInt(canonical as string) < 16n);
      }),
      { numRuns: 2000 },
    );
  });
});
