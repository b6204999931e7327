/**
 * What a walk remembers to notice a node repeating itself: the last values as digests, and a checkpoint
 * (Brent's cycle detection) that catches a cycle longer than what is remembered.
 */
import { describe, expect, it } from 'vitest';
import { digest, Recent } from '@x/client-core/internal';

describe('Recent', () => {
  it('remembers the last `size` values, strings by digest and bigints as they are', () => {
    const r = new Recent(3);
    expect(['a', 'b', 'c'].map((v) => r.add(v))).toEqual([false, false, false]);
    expect(r.add('a')).toBe(true);
    expect(r.add(5n)).toBe(false);
    expect(r.has(5n)).toBe(true);
    expect(digest('a')).toBe(digest('a'));
    expect(digest('a')).not.toBe(digest('b'));
  });

  it.each([10, 9_999, 10_001, 25_000])('a cycle of %i values among 10,000 remembered is noticed within three times its length', (length) => {
    const r = new Recent(10_000);
    let steps = 0;
    for (let i = 0; ; i++, steps++) {
      const value = `cursor-${i % length}`;
      if (r.has(value)) break;
      r.add(value);
      if (steps > 4 * length + 10) throw new Error('not noticed');
    }
    expect(steps).toBeLessThanOrEqual(3 * length + 2);
  });

  it('fresh values are never taken for repeats, however many', () => {
    const r = new Recent(100);
    // Every add is checked: the values taken for repeats, collected, are none (one expect, not 100,000).
    const repeats: number[] = [];
    for (let i = 0; i < 100_000; i++) if (r.add(`v${i}`) !== false) repeats.push(i);
    expect(repeats).toEqual([]);
  });
});
