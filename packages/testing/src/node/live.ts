/**
 * The live shapes (specs/node-rpc.live-overlay.yaml of the repository, LIVE-SHAPES.md): what real nodes send
 * where it differs from the document, made from the documented bodies the router renders. The same
 * seeded chain, so every transaction, hash, count and page is the same in both shapes; only the forms
 * differ. Where LIVE-SHAPES.md says a shape was not seen, the documented one is kept.
 */

import { toHex } from '../random.ts';

/** The two shapes the stub serves: `x-stub-shapes` per request, `shapes` per server. */
export type Shapes = 'documented' | 'live';
export const SHAPES: readonly Shapes[] = ['documented', 'live'];
/** Request header choosing the shapes of one answer, overriding the server's default. */
export const SHAPES_HEADER = 'x-stub-shapes';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * RFC 3339 in UTC with offset `+00:00`, as the node prints it (Rust chrono's `to_rfc3339`, seconds
 * format AutoSi): no fraction when the microseconds are 0, else 3 digits when they are whole
 * milliseconds, else 6 (S1 shows `2024-12-17T21:45:53.424357+00:00`).
 */
export function utcDateTime(micros: number): string {
  const seconds = Math.floor(micros / 1_000_000);
  const us = micros - seconds * 1_000_000;
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  const fraction = us === 0 ? '' : us % 1000 === 0 ? `.${String(us / 1000).padStart(3, '0')}` : `.${String(us).padStart(6, '0')}`;
  return `${base}${fraction}+00:00`;
}

/** `{ timestamp }` -> `{ microseconds_since_unix_epoch, utc_date_time }` (overlay action `timestamp`). */
function timestamp(ts: unknown): unknown {
  if (!isObj(ts) || typeof ts.timestamp !== 'number') return ts;
  return { microseconds_since_unix_epoch: ts.timestamp, utc_date_time: utcDateTime(ts.timestamp) };
}

/** `<address>:<creation number>` -> `{ creation_number, account_address }` (overlay action `event-guid`). */
function guid(g: unknown): unknown {
  if (typeof g !== 'string') return g;
  const i = g.lastIndexOf(':');
  return { creation_number: g.slice(i + 1), account_address: g.slice(0, i) };
}

/** A block header (v1 TransactionBlockInfo, v2 BlockHeaderInfo) in the live shapes: its timestamp. */
export function liveBlockHeader(header: Obj): Obj {
  return { ...header, timestamp: timestamp(header.timestamp) };
}

/** A v1 or v2 transaction in the live shapes: timestamps, the sender, event guids and sequence numbers. */
export function liveTransaction(tx: Obj): Obj {
  const out: Obj = { ...tx };
  if (isObj(tx.block_header)) out.block_header = liveBlockHeader(tx.block_header);
  if (isObj(tx.header)) {
    out.header = { ...tx.header, expiration_timestamp: timestamp(tx.header.expiration_timestamp), sender: { Move: tx.header.sender } };
  }
  const output = tx.output;
  if (isObj(output) && isObj(output.Move) && Array.isArray(output.Move.events)) {
    const events = (output.Move.events as Obj[]).map((e) => ({ ...e, guid: guid(e.guid), sequence_number: String(e.sequence_number) }));
    out.output = { Move: { ...output.Move, events } };
  }
  return out;
}

/**
 * A module ABI in the live shapes: `name` a string, `friends` an array of `0x1::genesis` names,
 * `exposed_functions` and `structs` arrays of the descriptions the documented objects key by name
 * (overlay actions `module-name`, `module-friends`, `module-functions`, `module-structs`).
 */
export function liveModuleAbi(abi: Obj): Obj {
  const name = isObj(abi.name) && typeof abi.name.identifier === 'string' ? abi.name.identifier : abi.name;
  return {
    ...abi,
    name,
    friends: isObj(abi.friends) ? Object.keys(abi.friends) : abi.friends,
    exposed_functions: isObj(abi.exposed_functions) ? Object.values(abi.exposed_functions) : abi.exposed_functions,
    structs: isObj(abi.structs) ? Object.values(abi.structs) : abi.structs,
  };
}

/** A v2 module (`{ bytecode, abi }`). */
export function liveModuleBytecode(m: Obj): Obj {
  return isObj(m.abi) ? { ...m, abi: liveModuleAbi(m.abi) } : m;
}

/** A v1 cursor's bytes as lowercase hex without `0x` (overlay action `v1-list-cursor`); `null` stays. */
export function liveCursorV1(cursor: number[] | null): string | null {
  return cursor === null ? null : toHex(cursor);
}

/** An error body as nodes send it (S3): `{ message }` only. */
export function liveErrorBody(body: Obj): Obj {
  return { message: typeof body.message === 'string' ? body.message : String(body.error ?? 'error') };
}
