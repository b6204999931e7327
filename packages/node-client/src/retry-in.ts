/**
 * Supra's node says how long to wait in its message, not in `Retry-After`: this client's knowledge, which
 * it hands its transport (`retryAfterFromBody`).
 */

/** How much of a message is searched for Supra's phrase: the node's own messages are one short line. */
const RETRY_IN_READ = 1024;

/**
 * How long a node that answered `Too many requests. Please try again in {duration}` asks to be left
 * alone, in ms: Supra's node formats a Rust `Duration` (`1.5s`, `250ms`, `2m`, `1h 5m`).
 *
 * @example
 * ```ts
 * supraRetryIn({ message: 'Too many requests. Please try again in 1.5s' }); // 1500
 * ```
 */
export function supraRetryIn(body: unknown): number | undefined {
  // A Rust `Duration` is short (`1h 5m 30s 250ms`): the expressions read at most 64 characters of it, and
  // a number only from its first digit, so a node's 100,000 digits cost one pass, not one per digit.
  // (Anything but text reads as `[object Object]` or `undefined`: no match.)
  const m = /try again in\s{1,8}([0-9][0-9.a-zµ ]{0,63})/i.exec(String(typeof body === 'string' ? body : (body as { message?: unknown } | null | undefined)?.message).slice(0, RETRY_IN_READ));
  let total: number | undefined;
  for (const [, n, unit] of m?.[1]!.matchAll(/(?<![0-9.])([0-9]+(?:\.[0-9]+)?)\s*(ns|µs|us|ms|s|m|h|d)\b/g) ?? []) total = (total ?? 0) + Number(n) * UNITS[unit!]!;
  return total && Math.ceil(total);
}

/** A Rust `Duration`'s units, in ms. */
const UNITS: Readonly<Record<string, number>> = { ns: 1e-6, 'µs': 1e-3, us: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
