/**
 * What the readers of `@x/node-client/shapes` share: how they tell a record they cannot read (a
 * `ResponseShapeError` with the JSON pointer of the value, since the record came from a server) and
 * the one u64 reader of `@x/client-core`.
 */
import { ResponseShapeError, readU64 } from '@x/client-core';
import type { EventGuid } from './shapes.js';

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value as an error shows it: JSON, at most 60 characters. */
export function describe(value: unknown): string {
  const text = (typeof value === 'bigint' ? `${value}n` : JSON.stringify(value)) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
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
