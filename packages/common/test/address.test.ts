/**
 * The one address rule: special addresses `0x0`..`0xf` short, every other one `0x` + 64 lowercase
 * digits. The node client sends and keys queries by it (`normalizeAddress`), the stubs answer with it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalAddress } from '@x/common';

const long = (hex: string): string => `0x${hex.padStart(64, '0')}`;

describe('canonicalAddress', () => {
  it.each([
    ['0x1', '0x1'],
    ['1', '0x1'],
    ['0x0001', '0x1'],
    ['0x01', '0x1'],
    ['0', '0x0'],
    ['0x' + '0'.repeat(64), '0x0'],
    ['0x' + '0'.repeat(63) + 'f', '0xf'],
    ['0xF', '0xf'],
    ['0x10', long('10')],
    ['ABC', long('abc')],
    ['0x000abc', long('abc')],
    [long('abc'), long('abc')],
    [long('ABC'), long('abc')],
  ])('%s -> %s', (input, canonical) => {
    expect(canonicalAddress(input)).toBe(canonical);
  });

  it.each(['', '0x', '0X1', 'xyz', '0x' + '1'.repeat(65), ' 0x1', '0x1 ', '0x-1', '0xg'])('%j is not an address', (input) => {
    expect(canonicalAddress(input)).toBeUndefined();
  });

  it('answers undefined for what is not a string (JavaScript callers), a number included', () => {
    for (const bad of [15, 0x1, 1n, null, undefined, ['0x1'], { toString: () => '0x1' }]) expect(canonicalAddress(bad as unknown as string)).toBeUndefined();
  });

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
