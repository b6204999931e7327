/**
 * What the readers of `@x/node-client/shapes` share: how they tell a record they cannot read (a
 * `ResponseShapeError` with the JSON pointer of the value, since the record came from a server) and
 * the one u64 reader of `@x/client-core`.
 */
import { ResponseShapeError, readU64 } from '@x/client-core';

/** An event stream's identity: the account that created it and its creation number there. */
export interface EventGuid {
  /** The account address as the node sent it (`0x1`, `0x0000…0001`, `0x0`). */
  readonly accountAddress: string;
  readonly creationNumber: bigint;
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** How many characters of a value an error shows. */
const SHOWN = 60;

/**
 * A value as an error shows it: its JSON, cut at 60 characters (a bigint as `12n`). Rendered here
 * rather than by `JSON.stringify`, which renders the whole value before it can be cut: a value a node
 * nested 100,000 deep overflows the stack, and one of megabytes costs megabytes. This stops once 60
 * characters are out, and every level of nesting writes at least one, so it goes at most 61 levels
 * deep and writes at most 61 items, and a long string or key is cut before it is escaped.
 */
export function describe(value: unknown): string {
  let text = '';
  const put = (part: string): boolean => {
    text += part;
    return text.length <= SHOWN;
  };
  const quoted = (s: string): string => JSON.stringify(s.length > SHOWN ? s.slice(0, SHOWN + 1) : s);
  // JSON writes nothing for these: `null` in an array, and the entry left out of an object.
  const unwritten = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol';
  const show = (v: unknown): boolean => {
    if (typeof v === 'string') return put(quoted(v));
    if (typeof v === 'bigint') return put(`${v}n`);
    if (typeof v !== 'object' || v === null) return put(JSON.stringify(v) ?? String(v));
    if (Array.isArray(v)) {
      if (!put('[')) return false;
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if ((i > 0 && !put(',')) || !show(unwritten(item) ? null : item)) return false;
      }
      return put(']');
    }
    if (!put('{')) return false;
    let first = true;
    for (const key in v) {
      if (!Object.hasOwn(v, key)) continue;
      const item: unknown = (v as Record<string, unknown>)[key];
      if (unwritten(item)) continue;
      if ((!first && !put(',')) || !put(`${quoted(key)}:`) || !show(item)) return false;
      first = false;
    }
    return put('}');
  };
  show(value);
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}...` : text;
}

/**
 * A record a reader cannot read: `operationId` names the reader (`coinBalance`), `path` is the JSON
 * pointer into the value given to it.
 */
export function shapeError(reader: string, path: string, expected: string, value: unknown): ResponseShapeError {
  return new ResponseShapeError({ operationId: reader, path, expected: `${expected}, got ${describe(value)}` });
}

/** A u64 of server data, exactly: a safe integer (documented form) or a decimal string (live form). */
export function u64(value: unknown, reader: string, path: string): bigint {
  const n = readU64(value);
  if (n === undefined || typeof value === 'bigint') throw shapeError(reader, path, 'a u64 (a safe integer or a decimal string)', value);
  return n;
}

/** An event guid of either form at `path` (see `eventGuid`), for the readers that take a whole record. */
export function guidOf(guid: unknown, reader: string, path: string): EventGuid | undefined {
  if (typeof guid === 'string') {
    const m = /^(0x[0-9a-fA-F]{1,64}):([0-9]{1,20})$/.exec(guid);
    return m ? { accountAddress: m[1]!, creationNumber: u64(m[2], reader, path) } : undefined;
  }
  if (isObject(guid) && typeof guid.account_address === 'string') {
    return { accountAddress: guid.account_address, creationNumber: u64(guid.creation_number, reader, `${path}/creation_number`) };
  }
  throw shapeError(reader, path, 'a string or { creation_number, account_address }', guid);
}
