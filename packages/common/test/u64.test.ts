/**
 * The one u64 reader: exact values from safe integers, bigints and decimal strings, nothing else. The
 * clients' argument checks, the shapes readers and the stubs read by it (each package's tests show it).
 * The property run over every u64 and beyond is u64.perf.test.ts's (the `perf` project: fuzzing).
 */
import { describe, expect, it } from 'vitest';
import { readU64, U64_MAX } from '@x/common';

describe('readU64', () => {
  it.each<[unknown, bigint | undefined]>([
    [0, 0n],
    [1, 1n],
    [-0, 0n],
    [2 ** 53 - 1, 9007199254740991n],
    [0n, 0n],
    [U64_MAX, U64_MAX],
    ['0', 0n],
    ['007', 7n],
    ['000', 0n],
    ['18446744073709551615', U64_MAX],
    ['018446744073709551615', U64_MAX],
    [`${'0'.repeat(79)}1`, 1n],
    // Not a u64, or not exactly one any more:
    [-1, undefined],
    [1.5, undefined],
    [2 ** 53, undefined],
    [Number.NaN, undefined],
    [Infinity, undefined],
    [-1n, undefined],
    [U64_MAX + 1n, undefined],
    ['18446744073709551616', undefined],
    [`${'0'.repeat(80)}1`, undefined],
    ['', undefined],
    [' 1', undefined],
    ['1 ', undefined],
    ['+1', undefined],
    ['-1', undefined],
    ['0x10', undefined],
    ['1e3', undefined],
    ['1.0', undefined],
    ['１', undefined],
    [null, undefined],
    [undefined, undefined],
    [{}, undefined],
    [[1], undefined],
    [true, undefined],
  ])('%o -> %o', (value, expected) => {
    expect(readU64(value)).toBe(expected);
  });

});
