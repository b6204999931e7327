/**
 * The hostile values of hostile.test.ts (10 MB strings, arrays of a million items) take time linear in
 * their size: shown as a ratio of two sizes measured in the same run, not as a wall-clock limit. A
 * `perf` project file (`pnpm test:perf`): run alone, so no other test file shares the CPU while it times;
 * the verdicts on the same values are hostile.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { validateMoveListCursor, validateMoveValue, validateMoveValueResponseV1 } from '@x/validators';
import { fns } from './helpers.js';
import { M, MB, moveValues as values, nearMisses, splitByOverflow, STRING_SCHEMAS, u8s } from './hostile-values.ts';

/** Best of `n` timings of `fn`, in ms. */
function time(fn: () => unknown, n: number): number {
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

/**
 * Linear within a generous factor: ten times the input takes less than 50 times as long (1 ms at least
 * as the base). Quadratic work takes 100 times as long, so it still fails; the factor leaves room for a
 * loaded CI machine (the best of three runs each, so one run slowed by another process does not count).
 */
function expectLinear(small: () => unknown, large: () => unknown): void {
  const a = time(small, 3);
  const b = time(large, 3);
  expect(b, `10x the input took ${b.toFixed(1)} ms vs ${a.toFixed(1)} ms`).toBeLessThan(Math.max(a, 1) * 50);
}

describe('10 MB strings', () => {
  const small = nearMisses(MB);
  const large = nearMisses(10 * MB);

  it('every spec pattern that is run as a regular expression runs in time linear in the string (1 MB vs 10 MB)', () => {
    // The patterns that overflow the stack on 10 MB are never run (hostile.test.ts): they have no time.
    const { regexps } = splitByOverflow(large);
    const run = (inputs: string[]) => () => {
      for (const re of regexps) for (const s of inputs) re.test(s);
    };
    expectLinear(run(small), run(large));
  });

  it('the validators of strings and of MoveValue Bytes: linear time', () => {
    const run = (inputs: string[]) => () => {
      for (const name of STRING_SCHEMAS) for (const s of inputs) fns(name).validate(s);
      for (const s of inputs) validateMoveValue({ Bytes: s });
    };
    expectLinear(run(small), run(large));
  });
});

describe('arrays of a million items', () => {
  it('u8 cursors: linear', () => {
    expectLinear(() => validateMoveListCursor(u8s(M / 10)), () => validateMoveListCursor(u8s(M)));
  });

  it('MoveValues: linear', () => {
    expectLinear(
      () => validateMoveValueResponseV1(values(M / 10, { U8: 1 }), { strict: true }),
      () => validateMoveValueResponseV1(values(M, { U8: 1 }), { strict: true }),
    );
  });

  it('allErrors with a million bad items: linear time (ajv concatenated errors quadratically)', () => {
    expectLinear(
      () => validateMoveValueResponseV1(values(M / 10, { U8: 256 }), { allErrors: true }),
      () => validateMoveValueResponseV1(values(M, { U8: 256 }), { allErrors: true }),
    );
  });
});
