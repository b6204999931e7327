import { InvalidArgumentError } from './errors.js';
import { bad, show, type ParamSpec } from './params.js';

/**
 * One field of an operation's JSON request body, as the generated operation table lists it: checked by
 * its generated `check` as a parameter is (an array's elements each as its `items` say), and `default`
 * sent when it is left out.
 */
export type BodyField = ParamSpec & {
  readonly items?: { readonly schema: ParamSpec['schema']; readonly description?: string };
  readonly default?: unknown;
};

/**
 * A `JSON.stringify` replacer that writes a bigint as its decimal text (Move's u64 and larger), where
 * `JSON.stringify` would throw.
 *
 * @example
 * ```ts
 * JSON.stringify({ amount: 10n }, bigintAsText); // '{"amount":"10"}'
 * ```
 */
export const bigintAsText = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? value.toString() : value);

/**
 * The JSON text of a request body: `value`'s fields checked against `fields` (an `InvalidArgumentError`
 * names the field, or the element: `type_arguments[1]`), defaults filled in, bigints sent as decimal
 * strings (Move's u64 and larger), and a field the operation does not take refused, since a node
 * ignoring a misspelt one would answer something the caller did not ask for.
 *
 * @example
 * ```ts
 * requestBody(operations.viewV3.body, { function: '0x1::timestamp::now_microseconds' });
 * // '{"function":"0x1::timestamp::now_microseconds","type_arguments":[],"arguments":[]}'
 * ```
 */
export function requestBody(fields: readonly BodyField[], value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidArgumentError('request', `must be an object of ${fields.map((f) => f.name).join(', ')}, got ${show(value)}`);
  const given = value as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (given[name] !== undefined && !fields.some((f) => f.name === name)) throw new InvalidArgumentError(name, `is not a field of this request (its fields: ${fields.map((f) => f.name).join(', ')})`);
  }
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const v = given[field.name] ?? field.default;
    if (v === undefined || v === null) {
      if (field.required) throw new InvalidArgumentError(field.name, 'is required');
      continue;
    }
    // Its generated check (a field of any JSON value has none).
    out[field.name] = field.check ? field.check(v, field.name, bad) : v;
  }
  try {
    return JSON.stringify(out, bigintAsText);
  } catch (err) {
    throw new InvalidArgumentError('request', `cannot be sent as JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}
