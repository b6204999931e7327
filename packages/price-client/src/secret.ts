import { ClientError, redactText } from '@x/client-core';

/**
 * Keeping the API key out of errors. The key lives in one place only, the `x-api-key` header of a
 * request to the price service; these helpers cover the two ways it could still reach an error:
 * a fetch failure that carries the keyed request (or text built from it), and a server that echoes
 * the key back in an error body.
 */

/** How long a cause chain is followed (causes can form cycles). */
const MAX_DEPTH = 8;
/** How deep a body is walked; a parsed JSON body has no cycles, but may be nested very deeply. */
const MAX_BODY_DEPTH = 64;

type Fields = Record<string, unknown>;

/**
 * A copy of a fetch failure that holds only text and primitive fields (name, message, stack, code,
 * errno, syscall, address, port, and the same for each cause), with the secret redacted.
 *
 * Used where fetch ran with the keyed request: a custom `fetch` (or a future runtime) may attach that
 * `Request` to its error, and `util.inspect` prints a request's headers. A copy cannot carry it.
 *
 * @example
 * ```ts
 * try { await fetch(keyedRequest); } catch (err) { throw safeError(err, apiKey); }
 * ```
 */
export function safeError(err: unknown, secret: string, depth = 0): Error {
  if (!(err instanceof Error)) {
    return new Error(typeof err === 'string' ? redactText(err, secret) : `fetch threw a ${typeof err}`);
  }
  const copy = new Error(redactText(err.message, secret), err.cause !== undefined && depth < MAX_DEPTH ? { cause: safeError(err.cause, secret, depth + 1) } : undefined);
  // Own, non-enumerable like a real error's name, so that String(copy) reads as the original.
  Object.defineProperty(copy, 'name', { value: err.name, configurable: true, writable: true });
  // The original stack says where the failure happened; the rest are what Node system errors and undici errors carry.
  for (const field of ['stack', 'code', 'errno', 'syscall', 'address', 'port']) {
    const value = (err as unknown as Fields)[field];
    if (typeof value === 'string' || typeof value === 'number') (copy as unknown as Fields)[field] = redactValue(value, secret, 0);
  }
  return copy;
}

/**
 * Redacts the secret, in place, from a `ClientError` and its causes: message, stack, and every own
 * field (an `HttpError` body or a `ResponseParseError` snippet hold what the server sent, which could
 * echo the key). Any other value, or no secret, leaves it untouched: a caller's abort reason is the
 * caller's own.
 *
 * @example
 * ```ts
 * await transport.call(...).catch((err) => Promise.reject(redactError(err, apiKey)));
 * ```
 */
export function redactError<T>(err: T, secret: string | undefined): T {
  if (secret && err instanceof ClientError) redactInPlace(err, secret, 0);
  return err;
}

function redactInPlace(err: Error, secret: string, depth: number): void {
  for (const name of new Set(['message', 'stack', 'cause', ...Object.keys(err)])) {
    const value = (err as unknown as Fields)[name];
    if (value instanceof Error) {
      if (depth < MAX_DEPTH) redactInPlace(value, secret, depth + 1);
    } else {
      const redacted = redactValue(value, secret, 0);
      // A field keeps its own attributes (message and stack stay not enumerable); a copy stands in for a body.
      if (redacted !== value) Object.defineProperty(err, name, { value: redacted, configurable: true, writable: true });
    }
  }
}

/**
 * A JSON-like value (a parsed body) with the secret redacted from every string. Class instances are
 * kept as they are; structure nested deeper than `MAX_BODY_DEPTH` is replaced, since it was not checked.
 */
function redactValue(value: unknown, secret: string, depth: number): unknown {
  if (typeof value === 'string') return redactText(value, secret);
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_BODY_DEPTH) return '[too deep to check]';
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secret, depth + 1));
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactText(k, secret), redactValue(v, secret, depth + 1)]));
}
