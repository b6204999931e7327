/**
 * Answers checked against their requests: an operation whose answer repeats one of its path parameters
 * (a transaction by hash carries that hash, a block by height that height) says so in the spec
 * (`x-echo`), its table entry carries it (`OperationSpec.echo`), and the transport checks every parsed
 * answer by it, inside the attempt, so that with several nodes a node that answered something else moves
 * the call on.
 */
import { ResponseShapeError } from './errors.js';
import type { OperationSpec } from './options.js';
import { show } from './params.js';

/**
 * A `ResponseShapeError` of an answer that is not the one asked for (it reads as one: same `name` and
 * `code`). Its own class only so that `fallsThrough` moves a call on for it, and not for every shape error.
 */
export class EchoMismatch extends ResponseShapeError {}

/**
 * Throws an `EchoMismatch` when `body` does not hold, at `echo.pointer`, the value of the path parameter
 * asked (`path`, checked already): a u64 compared as a number (a decimal string or a JSON number), hex
 * compared as the node reads it (case, `0x` and leading zeros aside). Its `path` is the pointer, or as
 * much of it as the body has objects for (`''` for a body of `null`, a list or text).
 *
 * @example
 * ```ts
 * checkEcho('getBlockByHeightV3', { parameter: 'height', pointer: ['header', 'height'], form: 'u64' }, { header: { height: 9 } }, { height: '5' });
 * // throws ResponseShapeError: Response of getBlockByHeightV3 at '/header/height': expected the height asked for, "5" (got 9)
 * ```
 * @internal
 */
export function checkEcho(operationId: string, { parameter, pointer, form }: NonNullable<OperationSpec['echo']>, body: unknown, path: Readonly<Record<string, unknown>> | undefined): void {
  const asked = path?.[parameter];
  let value = body;
  // Followed while there are objects: where one is missing (a body of null, a list or text), that is the error.
  let at = 0;
  for (; at < pointer.length && typeof value === 'object' && value !== null && !Array.isArray(value); at++) value = (value as Record<string, unknown>)[pointer[at]!];
  const found = at === pointer.length;
  // A u64 as a JSON number (past 2^53, as JSON.parse rounded it) or as decimal text; hex whatever its case, `0x` or leading zeros.
  const same =
    found &&
    (form === 'hex'
      ? typeof value === 'string' && hex(value) === hex(String(asked))
      : typeof value === 'number'
        ? value === Number(asked)
        : typeof value === 'string' && /^[0-9]+$/.test(value) && BigInt(value) === BigInt(asked as string));
  if (same || asked === undefined) return;
  const where = pointer.slice(0, at).map((k) => `/${k}`).join('');
  throw new EchoMismatch({ operationId, path: where, expected: `${found ? `the ${parameter} asked for, ${show(asked)}` : 'an object'} (got ${show(value)})` });
}

const hex = (text: string): string => text.toLowerCase().replace(/^(0x)?0*/, '');
