/**
 * Events by type (`listEventsV3`): the events the account transactions emitted (the same ones their
 * records carry), by Move type, oldest first in (block height, transaction index, event index) order.
 * Blocks without account transactions emit none (their block-metadata transaction has an `Empty` output),
 * so the events do not change with the clock. The cursor is the position of the last event returned as 32
 * hex digits (height, transaction index, event index); the next page starts after it. It is sent on every
 * page, the last one too, whose next page is empty; an empty page sends back the `start` it was given
 * (nothing given: `""`), either of which ends a walk.
 */
import { errorResponse, jsonResponse, queryParam } from '../router.ts';
import { MAX_TRANSACTION_COUNT, bad, parseCount, parseU64Param, type ChainHandler, type Parsed } from './handling.ts';
import type { Ledger } from './ledger.ts';
import { parseTypeTag, structTagToString } from './move.ts';
import { CURSOR_HEADER, OLDEST_BLOCK_HEADER } from './v3.ts';

type Body = Record<string, unknown>;

/** An event and where it was emitted. */
interface Emitted {
  readonly height: number;
  readonly tx: number;
  readonly ev: number;
  readonly hash: string;
  /** As the v3 listing sends it (EventV3). */
  readonly event: Body;
}

/** The document's `event_type` pattern: linear to test (no nested repetition). */
const EVENT_TYPE = /^(0x)?[0-9a-fA-F]{1,64}::[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*(<[0-9A-Za-z_:<>, ]+>)?$/;
/** A cursor this stub issues: 16 hex digits of height, 8 of transaction index, 8 of event index. */
const CURSOR = /^[0-9a-fA-F]{32}$/;

/** The key an event type is listed under: its canonical form (`0x0001::m::S` is `0x1::m::S`), or the text as it is when it is no type. */
function typeKey(type: string): string | undefined {
  const parsed = parseTypeTag(type.startsWith('0x') ? type : `0x${type}`);
  return parsed !== undefined && typeof parsed !== 'string' && 'struct' in parsed ? structTagToString(parsed.struct) : undefined;
}

/** A record's event (documented: guid `<address>:<n>`, sequence number a number) as EventV3: guid an object, numbers decimal text. */
function eventV3(e: { guid: string; sequence_number: number; type: string; data: unknown }): Body {
  const i = e.guid.lastIndexOf(':');
  return {
    guid: { creation_number: e.guid.slice(i + 1), account_address: e.guid.slice(0, i) },
    sequence_number: String(e.sequence_number),
    type: e.type,
    data: e.data,
  };
}

const hex = (n: number, digits: number): string => n.toString(16).padStart(digits, '0');
const cursorOf = (e: Emitted): string => `${hex(e.height, 16)}${hex(e.tx, 8)}${hex(e.ev, 8)}`;
/** Whether `e` comes after the position (height, tx, ev). */
const after = (e: Emitted, height: number, tx: number, ev: number): boolean =>
  e.height !== height ? e.height > height : e.tx !== tx ? e.tx > tx : e.ev > ev;

/** Index of the first event of `list` (in order) for which `test` holds, `test` false then true along it. */
function firstWhere(list: readonly Emitted[], test: (e: Emitted) => boolean): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(list[mid] as Emitted)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function parseCursor(query: URLSearchParams): Parsed<{ text: string; height: number; tx: number; ev: number } | undefined> {
  const raw = queryParam(query, 'start');
  if (raw === undefined) return { ok: true, value: undefined };
  if (typeof raw !== 'string') return bad('invalid_start', 'start given more than once');
  if (!CURSOR.test(raw)) return bad('invalid_start', `start must be an x-supra-cursor this node sent, got '${raw}'`);
  const at = (from: number, to: number): number => Number.parseInt(raw.slice(from, to), 16);
  return { ok: true, value: { text: raw, height: at(0, 16), tx: at(16, 24), ev: at(24, 32) } };
}

export function eventReads(ledger: Ledger, oldestBlock: number) {
  let byType: Map<string, Emitted[]> | undefined;
  /** Every event of the chain by type key, built on first use from the transactions' records. */
  const events = (): Map<string, Emitted[]> => {
    if (byType !== undefined) return byType;
    const index = new Map<string, Emitted[]>();
    for (const block of ledger.txBlocks()) {
      for (const tx of block.txs) {
        const output = tx.render('v2').output as { Move?: { events?: Array<{ guid: string; sequence_number: number; type: string; data: unknown }> } } | string | null;
        const emitted = typeof output === 'object' && output !== null ? (output.Move?.events ?? []) : [];
        emitted.forEach((e, ev) => {
          const key = typeKey(e.type) ?? e.type;
          const list = index.get(key) ?? [];
          if (list.length === 0) index.set(key, list);
          list.push({ height: tx.height, tx: tx.indexInBlock, ev, hash: tx.hash, event: eventV3(e) });
        });
      }
    }
    byType = index;
    return index;
  };

  const listEvents: ChainHandler = ({ req, params }) => {
    const raw = params.event_type as string;
    const key = EVENT_TYPE.test(raw) ? typeKey(raw) : undefined;
    if (key === undefined) return errorResponse(400, 'invalid_event_type', `event_type must be a Move struct type, address::module::Struct, got '${raw}'`);
    const start = parseU64Param(req.query, 'start_height');
    if (!start.ok) return start.response;
    const end = parseU64Param(req.query, 'end_height');
    if (!end.ok) return end.response;
    if (start.value !== undefined && end.value !== undefined && end.value < start.value) {
      return errorResponse(400, 'invalid_end_height', `end_height (${end.value}) must not be below start_height (${start.value})`);
    }
    const limit = parseCount(req.query, MAX_TRANSACTION_COUNT, 'limit');
    if (!limit.ok) return limit.response;
    const cursor = parseCursor(req.query);
    if (!cursor.ok) return cursor.response;
    const from = start.value ?? 0n;
    // A range that lies wholly below the oldest block kept: pruned. One that reaches above it starts there.
    if (end.value !== undefined && end.value > from && end.value <= BigInt(oldestBlock)) {
      return jsonResponse(
        410,
        { message: `blocks ${from} to ${end.value} are below block ${oldestBlock}, the oldest this node keeps: their events have been pruned` },
        { [OLDEST_BLOCK_HEADER]: String(oldestBlock) },
      );
    }
    const lowest = from > BigInt(oldestBlock) ? from : BigInt(oldestBlock);
    const list = events().get(key) ?? [];
    // Heights above every event's are compared as bigints only here: what follows is within the chain's.
    let i = lowest > BigInt(Number.MAX_SAFE_INTEGER) ? list.length : firstWhere(list, (e) => e.height >= Number(lowest));
    const c = cursor.value;
    if (c !== undefined) i = Math.max(i, firstWhere(list, (e) => after(e, c.height, c.tx, c.ev)));
    const page: Emitted[] = [];
    for (; i < list.length && page.length < limit.value; i++) {
      const e = list[i] as Emitted;
      if (end.value !== undefined && BigInt(e.height) >= end.value) break;
      page.push(e);
    }
    const last = page[page.length - 1];
    const headers: Record<string, string> = {
      [CURSOR_HEADER]: last === undefined ? (c?.text ?? '') : cursorOf(last),
      [OLDEST_BLOCK_HEADER]: String(oldestBlock),
    };
    return jsonResponse(200, { data: page.map((e) => ({ event: e.event, block_height: e.height, transaction_hash: e.hash })) }, headers);
  };

  return { listEventsV3: listEvents } satisfies Record<string, ChainHandler>;
}
