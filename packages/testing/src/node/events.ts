/**
 * Events by type (`listEventsV3`, and v4's `listEventsV4` with hashes and proofs; the v4 event emission proofs): the events the account transactions emitted (the same ones their
 * records carry), by Move type, oldest first in (block height, transaction index, event index) order.
 * Blocks without account transactions emit none (their block-metadata transaction has an `Empty` output),
 * so the events do not change with the clock. The cursor is the position of the last event returned as 32
 * hex digits (height, transaction index, event index); the next page starts after it. It is sent on every
 * page, the last one too, whose next page is empty; an empty page sends back the `start` it was given
 * (nothing given: `""`), either of which ends a walk.
 */
import { errorResponse, jsonResponse, queryParam } from '../router.ts';
import type { StubResponse } from '../router.ts';
import { eventV3 } from './event-forms.ts';
import { MAX_TRANSACTION_COUNT, bad, parseCount, parseFlag, parseU64Param, type ChainCall, type ChainHandler, type Parsed } from './handling.ts';
import type { Ledger } from './ledger.ts';
import { parseTypeTag, structTagToString } from './move.ts';
import { CURSOR_HEADER, OLDEST_BLOCK_HEADER } from './v3.ts';
import { blockTransactionHashes, eventEmissionProof, inclusionProof, transactionEventHashes } from './v4.ts';
import type { TxView } from './views.ts';

/** A transaction or event hash of a path: 64 hex digits, `0x` or not, any case. */
const HASH = /^(0x)?[0-9a-fA-F]{64}$/;

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

  /** The page a listing asks for, with its headers, or the 400 or 410 a node answers (v3 and v4 alike). */
  const eventPage = ({ req, params }: ChainCall): { page: Emitted[]; headers: Record<string, string> } | StubResponse => {
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
    return { page, headers };
  };

  const listEvents: ChainHandler = (call) => {
    const found = eventPage(call);
    if (!('page' in found)) return found;
    return jsonResponse(200, { data: found.page.map((e) => ({ event: e.event, block_height: e.height, transaction_hash: e.hash })) }, found.headers);
  };

  /** The account transaction with this hash, if any (a block-metadata transaction emits no event). */
  const accountTransaction = (hash: string): TxView | undefined => {
    const found = ledger.transaction(hash);
    return found !== undefined && 'tx' in found ? found.tx : undefined;
  };

  /** v4: v3's page, each event with its hash and, when `include_proof` asks, its two proofs. */
  const listEventsV4: ChainHandler = (call) => {
    const proof = parseFlag(call.req.query, 'include_proof');
    if (!proof.ok) return proof.response;
    const found = eventPage(call);
    if (!('page' in found)) return found;
    const data = found.page.map((e) => {
      const tx = accountTransaction(e.hash) as TxView;
      const events = transactionEventHashes(tx);
      const item: Body = { event: { ...e.event, hash: events[e.ev] }, block_height: e.height, transaction_hash: e.hash };
      if (proof.value) {
        item.proofs = {
          transaction_inclusion_proof: inclusionProof(blockTransactionHashes(ledger.block(e.height), ledger.metadataHash), e.hash, e.height, events),
          event_emission_proof: eventEmissionProof(events, e.ev),
        };
      }
      return item;
    });
    return jsonResponse(200, { data }, found.headers);
  };

  /** The proof that a transaction emitted an event, both named by hash: 400 for a malformed hash, 404 for an unknown pair. */
  const getEventEmissionProof: ChainHandler = ({ params, now }) => {
    const [event, transaction] = [params.event_hash as string, params.transaction_hash as string];
    for (const [name, raw] of [['event_hash', event], ['transaction_hash', transaction]] as const) {
      if (!HASH.test(raw)) return errorResponse(400, `invalid_${name}`, `${name} must be 64 hex digits with or without 0x, got '${raw}'`);
    }
    const canonical = (raw: string): string => `0x${raw.slice(raw.length - 64).toLowerCase()}`;
    const tx = accountTransaction(canonical(transaction));
    if (tx === undefined || tx.height > ledger.latest(now())) return jsonResponse(404, { message: `no transaction with hash ${canonical(transaction)}` });
    const events = transactionEventHashes(tx);
    const index = events.indexOf(canonical(event));
    if (index === -1) return jsonResponse(404, { message: `transaction ${tx.hash} emitted no event with hash ${canonical(event)}` });
    return jsonResponse(200, eventEmissionProof(events, index));
  };

  return {
    listEventsV3: listEvents,
    listEventsV4,
    getEventEmissionProofV4: getEventEmissionProof,
    getEventProofV4: getEventEmissionProof,
  } satisfies Record<string, ChainHandler>;
}
