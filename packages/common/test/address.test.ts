/**
 * The one address rule: special addresses `0x0`..`0xf` short, every other one `0x` + 64 lowercase
 * digits. The node client sends and keys queries by it (`normalizeAddress`), the stubs answer with it.
 * The property run over every spelling is address.perf.test.ts's (the `perf` project: fuzzing).
 */
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

});
