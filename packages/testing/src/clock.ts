/**
 * The stubs' clocks on the wire: an answer computed from a stub's clock carries the reading it used in
 * `x-stub-clock` (every answer of the price stub; the node stub's answers that read its clock), so that a
 * test can tell why an answer is empty, or which block was the latest.
 */

/** The response header that carries the clock reading an answer was computed at, as an ISO time. */
const CLOCK_HEADER = 'x-stub-clock';

/** The value of `x-stub-clock`: the ISO time of `ms`, or the value as it is when it is no time (a clock of the caller's that is broken). */
export function clockText(ms: number): string {
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : String(ms);
}

export const clockHeader = (ms: number): Record<string, string> => ({ [CLOCK_HEADER]: clockText(ms) });
