/**
 * The v3 account listings: another view of the same chain as v1 and v2. Pages are bare arrays; the cursor
 * listings say where the next page starts in the `x-supra-cursor` header, the history listings carry the
 * oldest block the node keeps (`x-supra-oldest-block`) and answer 410 below it. The single reads answer as
 * v2 does and are wired in stub.ts; the router adds `x-supra-chain-id` to every v3 answer.
 */
import { errorResponse, jsonResponse, queryParam, type StubResponse } from '../router.ts';
import { liveBlockHeader, liveModuleBytecode, liveTransaction } from './live.ts';
import { moduleKeyHex, resourceKeyHex } from './resources.ts';
import {
  MAX_TRANSACTION_COUNT,
  bad,
  keyPage,
  lowerBound,
  parseCount,
  parseFlag,
  parseHexStart,
  parseU64Param,
  type Handler,
  type NodeCall,
  type Parsed,
} from './handling.ts';
import type { AccountView, TxView } from './views.ts';

type Body = Record<string, unknown>;

/** Response headers of v3 (the node's served document). */
export const CURSOR_HEADER = 'x-supra-cursor';
export const CHAIN_ID_HEADER = 'x-supra-chain-id';
export const OLDEST_BLOCK_HEADER = 'x-supra-oldest-block';

/** The values of v3's `type` filter: automated, user, block metadata, automation record transactions. */
const KINDS = ['auto', 'user', 'meta', 'record'] as const;
export type Kind = (typeof KINDS)[number];
/** The `txn_type` of each kind's transactions. */
export const TXN_TYPES = { auto: 'automated', user: 'user', meta: 'block_metadata', record: 'automation_record' } as const satisfies Record<Kind, string>;

/** What the v3 listings read beyond the call: the pruning point and the fungible stores. */
export interface V3Context {
  /** The lowest block height whose history the stub keeps (`oldestBlock`; 0: nothing pruned). */
  readonly oldestBlock: number;
  /** The account whose primary fungible store is at `address`, if any. */
  storeOwner(address: string): AccountView | undefined;
}

/** `ascending`: `true` or `false` (absent: false, the node's default: descending). */
const parseAscending = (query: URLSearchParams): Parsed<boolean> => parseFlag(query, 'ascending');

/** `type`: one of `auto`, `user`, `meta`, `record`; absent, every kind. */
export function parseKind(query: URLSearchParams): Parsed<Kind | undefined> {
  const raw = queryParam(query, 'type');
  if (raw === undefined) return { ok: true, value: undefined };
  if (typeof raw !== 'string') return bad('invalid_type', 'type given more than once');
  if (!(KINDS as readonly string[]).includes(raw)) return bad('invalid_type', `type must be one of ${KINDS.join(', ')}, got '${raw}'`);
  return { ok: true, value: raw as Kind };
}

/** The automated transactions' `cursor`: opaque hex as the node issues it; empty means none. */
function parseCursor(query: URLSearchParams): Parsed<string | undefined> {
  const raw = queryParam(query, 'cursor');
  if (raw === undefined || raw === '') return { ok: true, value: undefined };
  if (typeof raw !== 'string') return bad('invalid_cursor', 'cursor given more than once');
  if (!/^(0x)?[0-9a-fA-F]+$/.test(raw)) return bad('invalid_cursor', `cursor must be a cursor this node issued (hex), got '${raw}'`);
  return { ok: true, value: raw };
}

/**
 * A v3 transaction: the v2 record tagged by `txn_type`. Every transaction an account sent is `user` (0x1's
 * system transactions too: they have sequence numbers); the chain has no automated or automation-record
 * transactions, and its block-metadata transactions are those of the blocks without account transactions
 * (`metadataTransactionV3`). In the live shapes the tag comes first, and the record has the live forms of
 * v2. Inside a block's own answer (`inBlock`), `block_header` is null: the block is the answer.
 */
export function transactionV3(tx: TxView, live: boolean, inBlock = false): Body {
  const rendered = tx.render('v2');
  const record = inBlock ? { ...rendered, block_header: null } : rendered;
  return live ? { txn_type: 'user', ...liveTransaction(record) } : { ...record, txn_type: 'user' };
}

/** The block-metadata transaction of a block without account transactions: nothing executed, no events. */
export function metadataTransactionV3(hash: string, header: Body | null, live: boolean): Body {
  const record = { hash, block_header: header, output: 'Empty', status: 'Success' };
  return live ? { txn_type: 'block_metadata', ...record, block_header: header === null ? null : liveBlockHeader(header) } : { ...record, txn_type: 'block_metadata' };
}

/** Only `user` (or no filter) keeps the stub's transactions. */
const kept = (kind: Kind | undefined): boolean => kind === undefined || kind === 'user';

/** Index of the first transaction whose cursor is > start. */
const upperBound = (list: readonly TxView[], start: bigint): number => lowerBound(list, start + 1n);

export function v3Listings(ctx: V3Context) {
  const accountNotFound = (address: string): StubResponse => errorResponse(404, 'account_not_found', `account ${address} not found`);
  const oldest = { [OLDEST_BLOCK_HEADER]: String(ctx.oldestBlock) };

  /** 410: the history asked for starts below the oldest block kept. A `{ message }` body in both shapes (ErrorMessage). */
  const pruned = (what: string): StubResponse =>
    jsonResponse(410, { message: `${what} is below block ${ctx.oldestBlock}, the oldest this node keeps: its history has been pruned` }, oldest);

  /** Index of the first transaction of an ascending list whose block the node keeps. */
  const firstKept = (list: readonly TxView[]): number => {
    let i = 0;
    while (i < list.length && (list[i] as TxView).height < ctx.oldestBlock) i++;
    return i;
  };

  /**
   * A history page in the order asked for, pruned: a page whose first transaction lies below the oldest
   * block is a 410; a page that runs into it ends there (descending pages are cut short).
   */
  const prunedPage = (items: readonly TxView[]): TxView[] | StubResponse => {
    const first = items[0];
    if (first !== undefined && first.height < ctx.oldestBlock) return pruned(`the transaction in block ${first.height}`);
    const end = items.findIndex((tx) => tx.height < ctx.oldestBlock);
    return end === -1 ? [...items] : items.slice(0, end);
  };

  // --- transactions: by sequence number, `start` inclusive --------------------------------------------------
  const listTransactions: Handler = ({ req, live, address, account }) => {
    const count = parseCount(req.query, MAX_TRANSACTION_COUNT);
    if (!count.ok) return count.response;
    const start = parseU64Param(req.query);
    if (!start.ok) return start.response;
    const ascending = parseAscending(req.query);
    if (!ascending.ok) return ascending.response;
    if (account === undefined) return accountNotFound(address);
    const list = account.sent;
    const n = list.length;
    let items: TxView[];
    if (ascending.value) {
      // From `start` up; without it, from the oldest transaction the node keeps.
      const from = start.value === undefined ? firstKept(list) : start.value >= BigInt(n) ? n : Number(start.value);
      items = list.slice(from, from + count.value);
    } else {
      // From `start` down (from the newest when `start` is past it, or absent).
      const top = start.value === undefined || start.value >= BigInt(n) ? n - 1 : Number(start.value);
      items = count.value === 0 ? [] : list.slice(Math.max(0, top - count.value + 1), top + 1).reverse();
    }
    const page = prunedPage(items);
    if (!Array.isArray(page)) return page;
    return jsonResponse(200, page.map((tx) => transactionV3(tx, live)), oldest);
  };

  /**
   * Coin (and fungible-asset) transactions: by coin cursor, `start` exclusive, `x-supra-cursor` the cursor
   * of the last transaction returned (none on an empty page).
   */
  const cursorPage = ({ req, live }: NodeCall, list: readonly TxView[], history: boolean): StubResponse => {
    const count = parseCount(req.query, MAX_TRANSACTION_COUNT);
    if (!count.ok) return count.response;
    const start = parseU64Param(req.query);
    if (!start.ok) return start.response;
    const ascending = parseAscending(req.query);
    if (!ascending.ok) return ascending.response;
    const kind = parseKind(req.query);
    if (!kind.ok) return kind.response;
    const all = kept(kind.value) ? list : [];
    let items: TxView[];
    if (ascending.value) {
      const from = start.value === undefined ? (history ? firstKept(all) : 0) : upperBound(all, start.value);
      items = all.slice(from, from + count.value);
    } else {
      const end = start.value === undefined ? all.length : lowerBound(all, start.value);
      items = count.value === 0 ? [] : all.slice(Math.max(0, end - count.value), end).reverse();
    }
    let page: TxView[] = items;
    if (history) {
      const p = prunedPage(items);
      if (!Array.isArray(p)) return p;
      page = p;
    }
    const headers: Record<string, string> = history ? { ...oldest } : {};
    const last = page[page.length - 1];
    if (last !== undefined) headers[CURSOR_HEADER] = String(last.cursor);
    return jsonResponse(200, page.map((tx) => transactionV3(tx, live)), headers);
  };

  const listCoinTransactions: Handler = (call) => {
    if (call.account === undefined) return accountNotFound(call.address);
    return cursorPage(call, call.account.coin, true);
  };

  /** The address is a fungible store's: its owner's coin transactions; any other address has none. Never pruned (the document gives it no 410). */
  const listFungibleAssetTransactions: Handler = (call) => cursorPage(call, ctx.storeOwner(call.address)?.coin ?? [], false);

  /**
   * Automated transactions: the chain has none, so every page is empty: `x-supra-cursor` empty in the
   * live shapes (always sent), absent in the documented ones. `block_height` below the oldest block (and
   * no `cursor`, which takes precedence) is a 410.
   */
  const listAutomatedTransactions: Handler = ({ req, live, address, account }) => {
    const count = parseCount(req.query, MAX_TRANSACTION_COUNT);
    if (!count.ok) return count.response;
    const cursor = parseCursor(req.query);
    if (!cursor.ok) return cursor.response;
    const height = parseU64Param(req.query, 'block_height');
    if (!height.ok) return height.response;
    const ascending = parseAscending(req.query);
    if (!ascending.ok) return ascending.response;
    if (account === undefined) return accountNotFound(address);
    if (cursor.value === undefined && height.value !== undefined && height.value < BigInt(ctx.oldestBlock)) return pruned(`block_height ${height.value}`);
    return jsonResponse(200, [], live ? { ...oldest, [CURSOR_HEADER]: '' } : oldest);
  };

  /**
   * Modules and resources: by state key, `start` the previous page's `x-supra-cursor` (the hex of the last
   * key returned, as v2's cursors). On the last page the header is absent (documented) or empty (live).
   */
  const keyListing =
    <T>(entriesOf: (a: AccountView) => readonly T[], keyOf: (address: string, e: T) => string, render: (e: T, live: boolean) => unknown): Handler =>
    ({ req, live, address, account }) => {
      const count = parseCount(req.query, undefined);
      if (!count.ok) return count.response;
      const start = parseHexStart(req.query);
      if (!start.ok) return start.response;
      if (account === undefined) return accountNotFound(address);
      const p = keyPage(entriesOf(account), (e) => keyOf(address, e), count.value, start.value);
      const next = p.more && p.lastKey !== '' ? p.lastKey : undefined;
      const headers: Record<string, string> = next !== undefined ? { [CURSOR_HEADER]: next } : live ? { [CURSOR_HEADER]: '' } : {};
      return jsonResponse(200, p.items.map((e) => render(e, live)), headers);
    };

  return {
    listTransactionsV3: listTransactions,
    listCoinTransactionsV3: listCoinTransactions,
    listFungibleAssetTransactionsV3: listFungibleAssetTransactions,
    listAutomatedTransactionsV3: listAutomatedTransactions,
    listModulesV3: keyListing(
      (a) => a.modules,
      (address, m) => moduleKeyHex(address, m.name),
      (m, live) => (live ? liveModuleBytecode(m.bytecode() as Body) : m.bytecode()),
    ),
    listResourcesV3: keyListing(
      (a) => a.resources,
      (address, r) => resourceKeyHex(address, r.type),
      (r) => ({ type: r.type, data: r.data() }),
    ),
  } satisfies Record<string, Handler>;
}
