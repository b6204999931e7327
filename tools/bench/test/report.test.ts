import { describe, expect, it } from 'vitest';
import { verdictOf, withinNoise, type Row } from '../src/report.ts';

const row = (ratio: number, ci: [number, number] | undefined, target: Row['target']): Row => ({
  id: 'x',
  group: '2',
  name: 'x',
  a: { label: 'a', value: 1, unit: 'ms' },
  b: { label: 'b', value: 1, unit: 'ms' },
  ratio,
  ci,
  ratioMeaning: 'b / a',
  target,
});

describe('verdicts', () => {
  it.each([
    ['above a >= target, CI above it', row(0.97, [0.96, 0.98], { op: '>=', value: 0.95 }), 'pass', false],
    ['above a >= target, CI around it', row(0.955, [0.94, 0.97], { op: '>=', value: 0.95 }), 'pass', true],
    ['below a >= target, CI around it', row(0.945, [0.93, 0.96], { op: '>=', value: 0.95 }), 'MISS', true],
    ['below a >= target, CI below it', row(0.9, [0.89, 0.91], { op: '>=', value: 0.95 }), 'MISS', false],
    ['under a <= target, CI under it', row(0.1, [0.09, 0.11], { op: '<=', value: 0.15 }), 'pass', false],
    ['over a <= target, CI around it', row(0.16, [0.14, 0.17], { op: '<=', value: 0.15 }), 'MISS', true],
    ['no CI', row(0.96, undefined, { op: '>=', value: 0.95 }), 'pass', false],
    ['no target', row(0.5, [0.1, 0.9], undefined), 'info', false],
    ['a target on values', row(0.5, [0.1, 0.9], { op: '<=', a: 10, b: 2, on: 'values' }), 'pass', false],
  ] as const)('%s', (_name, r, verdict, noisy) => {
    expect(verdictOf(r)).toBe(verdict);
    expect(withinNoise(r)).toBe(noisy);
  });
});
