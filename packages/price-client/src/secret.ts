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
/** Primitive error fields worth keeping on a copy (Node system errors and undici errors use these). */
const ERROR_FIELDS = ['code', 'errno', 'syscall', 'address', 'port'] as const;

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
    return new Error(typeof err === 'string' ? redactText(err, secret) : `fetch failed with a non-error value (${typeof err})`);
  }
  const cause = 'cause' in err && err.cause !== undefined && depth < MAX_DEPTH ? safeError(err.cause, secret, depth + 1) : undefined;
  const copy = new Error(redactText(err.message, secret), cause === undefined ? undefined : { cause });
  // Own, non-enumerable like a real error's name, so that String(copy) reads as the original.
  Object.defineProperty(copy, 'name', { value: err.name, enumerable: false, configurable: true, writable: true });
  for (const field of ERROR_FIELDS) {
    const value = (err as unknown as Record<string, unknown>)[field];
    if (typeof value === 'string') (copy as unknown as Record<string, unknown>)[field] = redactText(value, secret);
    else if (typeof value === 'number') (copy as unknown as Record<string, unknown>)[field] = value;
  }
  // The original stack says where the failure happened, which is what a reader of the copy needs.
  if (typeof err.stack === 'string') copy.stack = redactText(err.stack, secret);
  return copy;
}

/**
 * Redacts the secret, in place, from a `ClientError` and its causes: message, stack, and every own
 * field (an `HttpError` body or a `ResponseParseError` snippet hold what the server sent, which could
 * echo the key). Any other value is returned untouched: a caller's abort reason is the caller's own.
 *
 * @example
 * ```ts
 * await transport.call(...).catch((err) => Promise.reject(redactError(err, apiKey)));
 * ```
 */
export function redactError<T>(err: T, secret: string): T {
  if (err instanceof ClientError) redactInPlace(err, secret, 0);
  return err;
}

function redactInPlace(err: Error, secret: string, depth: number): void {
  const fields = err as unknown as Record<string, unknown>;
  for (const name of ['message', 'stack']) {
    const text = fields[name];
    if (typeof text === 'string' && text.includes(secret)) {
      Object.defineProperty(err, name, { value: redactText(text, secret), enumerable: false, configurable: true, writable: true });
    }
  }
  for (const name of Object.keys(err)) fields[name] = redactValue(fields[name], secret, 0);
  if (err.cause instanceof Error && depth < MAX_DEPTH) redactInPlace(err.cause, secret, depth + 1);
  else if (typeof err.cause === 'string') err.cause = redactText(err.cause, secret);
}

/**
 * A JSON-like value (a parsed body) with the secret redacted from every string. Class instances are
 * kept as they are; structure nested deeper than `MAX_BODY_DEPTH` is replaced, since it was not checked.
 */
function redactValue(value: unknown, secret: string, depth: number): unknown {
  if (typeof value === 'string') return redactText(value, secret);
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_BODY_DEPTH) return '[nested too deeply to check]';
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secret, depth + 1));
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactText(k, secret), redactValue(v, secret, depth + 1)]));
}
