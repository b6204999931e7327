/**
 * Supra's node says how long to wait in its message, not in `Retry-After`: this client's knowledge, which
 * it hands its transport (`retryAfterFromBody`).
 */

/**
 * How long a node that answered `Too many requests. Please try again in {duration}` asks to be left
 * alone, in ms: Supra's node writes a Rust `Duration` as its `Debug` does, one number and its unit
 * (`2206s`, `1.5s`, `250ms`, `100µs`).
 *
 * @example
 * ```ts
 * supraRetryIn({ message: 'Too many requests. Please try again in 1.5s' }); // 1500
 * ```
 */
export function supraRetryIn(body: unknown): number | undefined {
  // Bounded runs from the phrase on, in the first 1,024 characters: a node's 100,000 digits cost one pass.
  // (Anything but text reads as `[object Object]` or `undefined`: no match.)
  const m = /try again in\s{0,8}(\d{1,20}(?:\.\d{1,20})?)\s?(ns|µs|us|ms|s)\b/i.exec(String(typeof body === 'string' ? body : (body as { message?: unknown } | null | undefined)?.message).slice(0, 1024));
  return m ? Math.ceil(Number(m[1]) * UNITS[m[2]!.toLowerCase()]!) : undefined;
}

/** A Rust `Duration`'s units, in ms. */
const UNITS: Readonly<Record<string, number>> = { ns: 1e-6, 'µs': 1e-3, us: 1e-3, ms: 1, s: 1000 };
