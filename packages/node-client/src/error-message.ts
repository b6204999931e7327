/**
 * How a Supra node writes the message of an error body: `{ "message": "..." }` since node v11.7; before,
 * Rust's debug text of an `Option`, `Some("...")`, which is unwrapped here. This client's knowledge, which
 * it hands its transport (`messageOf`); the transport's `HttpError` shows it short and redacted.
 */

/** What of a message is unwrapped: HttpError shows at most 200 characters of it. */
const READ = 1024;

/**
 * The message of a node's error body, `Some("...")` unwrapped; `undefined` when the body has none.
 *
 * @example
 * ```ts
 * nodeErrorMessage({ message: 'Some("Account not found: \\"0x2\\"")' }); // 'Account not found: "0x2"'
 * ```
 */
export function nodeErrorMessage(body: unknown): string | undefined {
  const message = (body as { message?: unknown } | null | undefined)?.message;
  if (typeof message !== 'string') return undefined;
  // Checked on the whole text, whose cut would lose the closing `")`; both checks are constant-time.
  const whole = message.trim();
  if (!(whole.startsWith('Some("') && whole.endsWith('")'))) return message;
  return whole.slice(6, -2).slice(0, READ).replace(/\\(["\\])/g, '$1');
}
