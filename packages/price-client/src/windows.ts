import { InvalidArgumentError } from '@x/client-core';

/** One request's slice of a long range: `[start, end]` in Unix milliseconds, both inclusive. */
export type Window = { readonly start: number; readonly end: number };

/**
 * Splits `[start, end]` into consecutive, non-overlapping windows of `windowMs` (the last may be
 * shorter). Window starts are aligned to `start`, so with `windowMs` a multiple of the resolution
 * every candle falls in exactly one window. Throws `InvalidArgumentError` for a bad argument (a
 * `windowMs` of 0 would otherwise never end).
 *
 * @example
 * ```ts
 * splitRange(0, 25, 10); // [{ start: 0, end: 9 }, { start: 10, end: 19 }, { start: 20, end: 25 }]
 * ```
 */
export function splitRange(start: number, end: number, windowMs: number): Window[] {
  const windows = rangeWindows(start, end, windowMs);
  return Array.from({ length: windows.count }, (_, i) => windows.at(i));
}

/**
 * The windows of a range without materialising them: `historyRange` over a wide range with a small
 * window would otherwise build an array of millions of windows before its first request.
 */
export function rangeWindows(start: number, end: number, windowMs: number): { count: number; at(i: number): Window } {
  for (const [name, value] of [['start', start], ['end', end], ['windowMs', windowMs]] as const) {
    if (!Number.isSafeInteger(value) || value < (name === 'windowMs' ? 1 : 0)) {
      throw new InvalidArgumentError(name, `must be a ${name === 'windowMs' ? 'positive' : 'non-negative'} safe integer, got ${String(value)}`);
    }
  }
  if (start > end) throw new InvalidArgumentError('start', `must not be after end (${start} > ${end})`);
  return {
    count: Math.floor((end - start) / windowMs) + 1,
    at: (i) => ({ start: start + i * windowMs, end: Math.min(end, start + (i + 1) * windowMs - 1) }),
  };
}
