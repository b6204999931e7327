/**
 * readU64 on values fast-check draws (a fresh seed each run, printed on failure): every u64 from its
 * bigint and its decimal text, and nothing beyond. A `perf` project file (`pnpm test:perf`): fuzzing, not
 * a unit check; the table of values and non-values is u64.test.ts's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readU64, U64_MAX } from '@x/common';

describe('readU64', () => {
  it('reads every u64 from its bigint and its decimal text, leading zeros or not, and nothing beyond', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -2n, max: U64_MAX + 2n }), fc.nat(5), (n, zeros) => {
        const expected = n >= 0n && n <= U64_MAX ? n : undefined;
        expect(readU64(n)).toBe(expected);
        if (n >= 0n) expect(readU64('0'.repeat(zeros) + n.toString())).toBe(expected);
        if (n >= 0n && n <= BigInt(Number.MAX_SAFE_INTEGER)) expect(readU64(Number(n))).toBe(n);
      }),
      { numRuns: 3000 },
    );
  });
});
