/** One request's slice of a long range: `[start, end]` in Unix milliseconds, both inclusive. */
export type Window = { readonly start: number; readonly end: number };

/**
 * Splits `[start, end]` into consecutive, non-overlapping windows of `windowMs` (the last may be
 * shorter). Window starts are aligned to `start`, so with `windowMs` a multiple of the resolution
 * every candle falls in exactly one window.
 *
 * @example
 * ```ts
 * splitRange(0, 25, 10); // [{ start: 0, end: 9 }, { start: 10, end: 19 }, { start: 20, end: 25 }]
 * ```
 */
export function splitRange(start: number, end: number, windowMs: number): Window[] {
  const windows: Window[] = [];
  for (let s = start; s <= end; s += windowMs) windows.push({ start: s, end: Math.min(end, s + windowMs - 1) });
  return windows;
}
