import { describe, expect, it } from 'vitest';
import { pairedRatio } from '../src/harness.ts';

/** Per-round times whose ratios arm/base are e^logs[i]. */
const rounds = (logs: readonly number[]): [number[], number[]] => [logs.map(() => 100), logs.map((l) => 100 * Math.exp(l))];

describe('pairedRatio', () => {
  it('gives a constant ratio exactly, with an interval of that value', () => {
    const r = pairedRatio([10, 20, 40, 80, 10, 20, 40], [5, 10, 20, 40, 5, 10, 20]);
    expect(r.ratio).toBeCloseTo(0.5, 12);
    expect(r.ci[0]).toBeCloseTo(0.5, 12);
    expect(r.ci[1]).toBeCloseTo(0.5, 12);
  });

  it('is the median of the Walsh averages of the log ratios', () => {
    // logs 0, 0.1, 0.2: Walsh averages 0, 0.05, 0.1, 0.1, 0.15, 0.2
    const r = pairedRatio(...rounds([0, 0.1, 0.2]));
    expect(r.ratio).toBeCloseTo(Math.exp(0.1), 12);
    // Too few rounds for a 95% interval: the whole range.
    expect(r.ci[0]).toBeCloseTo(1, 12);
    expect(r.ci[1]).toBeCloseTo(Math.exp(0.2), 12);
  });

  it('bounds the interval by the Wilcoxon critical ranks (n = 10: the 9th smallest and largest Walsh averages)', () => {
    const r = pairedRatio(...rounds([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => i / 100)));
    expect(r.ratio).toBeCloseTo(Math.exp(0.055), 12);
    expect(r.ci[0]).toBeCloseTo(Math.exp(0.03), 12);
    expect(r.ci[1]).toBeCloseTo(Math.exp(0.08), 12);
  });

  it('barely moves for one wild round, and narrows with more rounds', () => {
    const logs = Array.from({ length: 40 }, (_, i) => ((i * 7) % 40) / 400 - 0.05);
    const clean = pairedRatio(...rounds(logs));
    const wild = pairedRatio(...rounds([...logs.slice(1), 2]));
    expect(Math.abs(Math.log(wild.ratio / clean.ratio))).toBeLessThan(0.005);
    const more = pairedRatio(...rounds([...logs, ...logs, ...logs, ...logs]));
    expect(more.ci[1] - more.ci[0]).toBeLessThan((clean.ci[1] - clean.ci[0]) / 1.8);
  });

  it('reports the interquartile range of the ratios themselves', () => {
    const r = pairedRatio([1, 1, 1, 1, 1], [1, 2, 3, 4, 5]);
    expect(r.spread).toEqual([2, 4]);
  });
});
