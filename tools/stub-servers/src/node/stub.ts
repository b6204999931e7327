/**
 * The node RPC stub: account operations v1 and v2 over the synthetic chain, with the document's paging
 * semantics and the choices README.md lists where the document is silent.
 */
import {
  errorResponse,
  headerValue,
  jsonResponse,
  pathSegments,
  queryParam,
  rawJsonResponse,
  startStubServer,
  type StubHandle,
  type StubRequest,
  type StubResponse,
} from '../http.ts';
import { seedToU32 } from '../random.ts';
import { STUB_ACCOUNTS } from './accounts.ts';
import { authKey, chainFor, type AccountState, type Chain, type TxInfo } from './chain.ts';
import { canonicalAddress, fieldsToJson, parseTypeTag, structTagToString, toMoveValueV1 } from './move.ts';
import { modulesOf, type ModuleEntry } from './modules.ts';
import { renderTxV1, renderTxV2 } from './render.ts';
import {
  SHAPES,
  SHAPES_HEADER,
  liveCursorV1,
  liveErrorBody,
  liveModuleAbi,
  liveModuleBytecode,
  liveTransactionPage,
  type Shapes,
} from './live.ts';
import { moduleKeyHex, resourceKeyHex, resourcesOf, type ResourceEntry } from './resources.ts';

export interface NodeStubOptions {
  /** Port to listen on; 0 picks a free one. Default 0. */
  port?: number;
  /** Seed of the synthetic chain (number or string). Default 1. */
  seed?: number | string;
  /** Loopback host: '127.0.0.1' (default), '::1' or 'localhost'. */
  host?: string;
  /**
   * The forms of the answers: `documented` (default, the node document) or `live` (what real nodes
   * send, specs/node-rpc.live-overlay.yaml). A request's `x-stub-shapes` header overrides it.
   */
  shapes?: Shapes;
}

export interface NodeStubHandle extends StubHandle {
  /** The seed as the unsigned 32-bit integer the chain was built from. */
  readonly seed: number;
  readonly accounts: typeof STUB_ACCOUNTS;
  /** The server's default shapes (a request's `x-stub-shapes` overrides it). */
  readonly shapes: Shapes;
}

/** Default and maximum `count` of the transaction listings (the document's limits). */
export const DEFAULT_COUNT = 20;
export const MAX_TRANSACTION_COUNT = 100;
const U64_MAX = 18446744073709551615n;

type Version = 'v1' | 'v2';
type Parsed<T> = { ok: true; value: T } | { ok: false; response: StubResponse };

const bad = (code: string, message: string): { ok: false; response: StubResponse } => ({
  ok: false,
  response: errorResponse(400, code, message),
});

function parseCount(query: URLSearchParams, max: number | undefined): Parsed<number> {
  const raw = queryParam(query, 'count');
  if (raw === undefined) return { ok: true, value: DEFAULT_COUNT };
  if (typeof raw !== 'string') return bad('invalid_count', 'count given more than once');
  if (!/^[0-9]+$/.test(raw)) return bad('invalid_count', `count must be a non-negative integer, got '${raw}'`);
  const n = Number(raw);
  if (max !== undefined && n > max) {
    return bad('count_out_of_range', `count must be at most ${max} for this listing, got ${raw}`);
  }
  return { ok: true, value: n };
}

/** A u64 `start` (sequence number or coin cursor). */
function parseU64Start(query: URLSearchParams): Parsed<bigint | undefined> {
  const raw = queryParam(query, 'start');
  if (raw === undefined) return { ok: true, value: undefined };
  if (typeof raw !== 'string') return bad('invalid_start', 'start given more than once');
  if (!/^[0-9]{1,20}$/.test(raw) || BigInt(raw) > U64_MAX) {
    return bad('invalid_start', `start must be an unsigned 64-bit integer, got '${raw}'`);
  }
  return { ok: true, value: BigInt(raw) };
}

/** A module/resource listing cursor: hex bytes (v1: the lowercase hex of the cursor array; v2: as returned). */
function parseHexStart(query: URLSearchParams): Parsed<string | undefined> {
  const raw = queryParam(query, 'start');
  if (raw === undefined) return { ok: true, value: undefined };
  if (typeof raw !== 'string') return bad('invalid_start', 'start given more than once');
  const hex = raw.startsWith('0x') ? raw.slice(2) : raw;
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) {
    return bad('invalid_start', `start must be the hex-encoded bytes of a cursor, got '${raw}'`);
  }
  return { ok: true, value: hex.toLowerCase() };
}

const hexToBytes = (hex: string): number[] => Array.from(Buffer.from(hex, 'hex'));
/** A v1 listing cursor: bytes (documented) or their hex (live). */
const cursorV1 = (live: boolean, bytes: number[] | null): number[] | string | null => (live ? liveCursorV1(bytes) : bytes);

/** Index of the first element whose cursor is >= start (binary search over an ascending list). */
function lowerBound(chain: Chain, list: number[], start: bigint): number {
  if (start > BigInt(Number.MAX_SAFE_INTEGER)) return list.length;
  const s = Number(start);
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((chain.txs[list[mid] as number] as TxInfo).cursor < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** `count` most recent, descending (no start), or `count` from index `from`, ascending. */
function page(list: number[], count: number, from: number | undefined): number[] {
  if (from === undefined) return count === 0 ? [] : list.slice(Math.max(0, list.length - count)).reverse();
  return list.slice(from, from + count);
}

function keyPage<T>(entries: T[], keyOf: (e: T) => string, count: number, start: string | undefined) {
  let from = 0;
  if (start !== undefined) {
    while (from < entries.length && keyOf(entries[from] as T) <= start) from++;
  }
  const items = entries.slice(from, from + count);
  const last = items[items.length - 1];
  return {
    items,
    /** Key of the last returned item, else the start given, else '' (nothing seen yet). */
    lastKey: last === undefined ? (start ?? '') : keyOf(last),
    more: from + items.length < entries.length,
  };
}

/**
 * The node router: answers in the request's `x-stub-shapes` (`documented` or `live`), else in
 * `shapes`. A bad header value is a 400.
 */
export function createNodeRouter(seed: number, shapes: Shapes = 'documented'): (req: StubRequest) => StubResponse {
  if (!SHAPES.includes(shapes)) throw new Error(`shapes must be documented or live, got '${String(shapes)}'`);
  const route = createShapedRouter(seed);
  return (req) => {
    const asked = headerValue(req.headers, SHAPES_HEADER);
    if (asked !== undefined && !SHAPES.includes(asked as Shapes)) {
      return errorResponse(400, 'invalid_shapes', `${SHAPES_HEADER} must be documented or live, got '${asked}'`);
    }
    const live = (asked ?? shapes) === 'live';
    const res = route(req, live);
    // Node errors in the live shape are `{ message }` (S3).
    if (live && res.status >= 400 && res.contentType === 'application/json') {
      return { ...res, body: JSON.stringify(liveErrorBody(JSON.parse(res.body) as Record<string, unknown>)) };
    }
    return res;
  };
}

function createShapedRouter(seed: number): (req: StubRequest, live: boolean) => StubResponse {
  const chain = chainFor(seed);
  const moduleCache = new Map<string, ModuleEntry[]>();
  const resourceCache = new Map<string, ResourceEntry[]>();
  const modules = (a: AccountState): ModuleEntry[] => {
    let m = moduleCache.get(a.name);
    if (m === undefined) moduleCache.set(a.name, (m = modulesOf(a.name, seed)));
    return m;
  };
  const resources = (a: AccountState): ResourceEntry[] => {
    let r = resourceCache.get(a.name);
    if (r === undefined) resourceCache.set(a.name, (r = resourcesOf(a.name)));
    return r;
  };
  const notFound = (what: string): StubResponse => errorResponse(404, 'not_found', `no such path: ${what}`);
  const accountNotFound = (address: string): StubResponse =>
    errorResponse(404, 'account_not_found', `account ${address} not found`);

  type Body = Record<string, unknown>;
  /** A body in the shape the request asked for. */
  const shaped = <T extends Body>(live: boolean, body: T, toLive: (b: T) => Body): Body => (live ? toLive(body) : body);
  return (req, live) => {
    const segs = pathSegments(req.path);
    if (segs === undefined) return errorResponse(400, 'invalid_path', 'path is not valid percent-encoding');
    const [rpc, version, accountsSeg, addressRaw, op, name, ...extra] = segs;
    if (rpc !== 'rpc' || (version !== 'v1' && version !== 'v2') || accountsSeg !== 'accounts' || addressRaw === undefined) {
      return notFound(req.path);
    }
    if (extra.length > 0) return notFound(req.path);
    const v: Version = version;
    const known = op === undefined || op === 'coin_transactions' || op === 'transactions' || op === 'modules' || op === 'resources';
    if (!known || ((op === undefined || op === 'coin_transactions' || op === 'transactions') && name !== undefined)) {
      return notFound(req.path);
    }
    if (name === '') return notFound(req.path);
    const address = canonicalAddress(addressRaw);
    if (address === undefined) {
      return errorResponse(400, 'invalid_address', `address must be 1 to 64 hex digits with or without 0x, got '${addressRaw}'`);
    }
    const account = chain.byAddress.get(address);

    // --- account -------------------------------------------------------------------------------------
    if (op === undefined) {
      if (account === undefined) return v === 'v1' ? jsonResponse(200, null) : accountNotFound(address);
      return jsonResponse(200, { sequence_number: account.sent.length, authentication_key: authKey(account.address) });
    }

    // --- transactions (sent, by sequence number) ------------------------------------------------------
    if (op === 'transactions') {
      const count = parseCount(req.query, MAX_TRANSACTION_COUNT);
      if (!count.ok) return count.response;
      const start = parseU64Start(req.query);
      if (!start.ok) return start.response;
      if (account === undefined) return v === 'v1' ? jsonResponse(200, { record: [] }) : accountNotFound(address);
      const list = account.sent;
      const from = start.value === undefined ? undefined : start.value >= BigInt(list.length) ? list.length : Number(start.value);
      const items = page(list, count.value, from).map((gi) => chain.txs[gi] as TxInfo);
      const render = v === 'v1' ? renderTxV1 : renderTxV2;
      return jsonResponse(200, shaped(live, { record: items.map((tx) => render(chain, tx)) as Body[] }, liveTransactionPage));
    }

    // --- coin transactions (sent and received, by coin cursor) ------------------------------------------
    if (op === 'coin_transactions') {
      const count = parseCount(req.query, MAX_TRANSACTION_COUNT);
      if (!count.ok) return count.response;
      const start = parseU64Start(req.query);
      if (!start.ok) return start.response;
      if (account === undefined && v === 'v2') return accountNotFound(address);
      const list = account?.coin ?? [];
      const from = start.value === undefined ? undefined : lowerBound(chain, list, start.value);
      const items = page(list, count.value, from).map((gi) => chain.txs[gi] as TxInfo);
      const render = v === 'v1' ? renderTxV1 : renderTxV2;
      const record = items.map((tx) => render(chain, tx));
      if (items.length > 0) {
        // Next page starts right after the newest transaction returned (ascending or descending page).
        const cursor = Math.max(...items.map((tx) => tx.cursor)) + 1;
        return jsonResponse(200, shaped(live, { record: record as Body[], cursor }, liveTransactionPage));
      }
      // Nothing returned: the cursor stays where the client asked (exact u64 text, even above 2^53).
      const echo = (start.value ?? 0n).toString();
      return rawJsonResponse(200, `{"record":${JSON.stringify(record)},"cursor":${echo}}`);
    }

    // --- modules ----------------------------------------------------------------------------------------
    if (op === 'modules') {
      if (name !== undefined) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
          return errorResponse(400, 'invalid_module_name', `module_name must be a Move identifier, got '${name}'`);
        }
        const entry = account === undefined ? undefined : modules(account).find((m) => m.name === name);
        if (v === 'v1') return jsonResponse(200, entry === undefined ? null : shaped(live, entry.abi() as Body, liveModuleAbi));
        if (account === undefined) return accountNotFound(address);
        if (entry === undefined) return errorResponse(404, 'module_not_found', `module ${address}::${name} not found`);
        return jsonResponse(200, shaped(live, entry.bytecode() as Body, liveModuleBytecode));
      }
      const count = parseCount(req.query, undefined);
      if (!count.ok) return count.response;
      const start = parseHexStart(req.query);
      if (!start.ok) return start.response;
      if (account === undefined && v === 'v2') return accountNotFound(address);
      const all = account === undefined ? [] : modules(account);
      const p = keyPage(all, (m) => moduleKeyHex(address, m.name), count.value, start.value);
      if (v === 'v1') {
        return jsonResponse(200, {
          Modules: {
            modules: p.items.map((m) => [m.name, { address, name: m.name }]),
            cursor: cursorV1(live, p.more ? hexToBytes(p.lastKey) : null),
          },
        });
      }
      const bytecodes = p.items.map((m) => shaped(live, m.bytecode() as Body, liveModuleBytecode));
      return jsonResponse(200, { modules: bytecodes, cursor: p.more ? p.lastKey : null });
    }

    // --- resources --------------------------------------------------------------------------------------
    if (name !== undefined) {
      if (!/^0x[0-9a-zA-Z:_<>]+$/.test(name)) {
        return errorResponse(400, 'invalid_resource_type', `resource_type must match ^0x[0-9a-zA-Z:_<>]+$, got '${name}'`);
      }
      const parsed = parseTypeTag(name);
      if (parsed === undefined || typeof parsed === 'string' || !('struct' in parsed)) {
        return errorResponse(400, 'invalid_resource_type', `resource_type is not a Move struct type: '${name}'`);
      }
      const type = structTagToString(parsed.struct);
      const entry = account === undefined ? undefined : resources(account).find((r) => r.type === type);
      if (v === 'v1') {
        if (entry === undefined) return jsonResponse(200, null);
        // Live nodes answer the resource's struct JSON itself, without the one-key MoveValue wrapper.
        const result = live ? [fieldsToJson(entry.fields(chain))] : entry.fields(chain).map(([, value]) => toMoveValueV1(value));
        return jsonResponse(200, { result });
      }
      if (account === undefined) return accountNotFound(address);
      if (entry === undefined) return errorResponse(404, 'resource_not_found', `resource ${type} not found at ${address}`);
      return jsonResponse(200, { type: entry.type, data: fieldsToJson(entry.fields(chain)) });
    }
    const count = parseCount(req.query, undefined);
    if (!count.ok) return count.response;
    const start = parseHexStart(req.query);
    if (!start.ok) return start.response;
    if (account === undefined && v === 'v2') return accountNotFound(address);
    const all = account === undefined ? [] : resources(account);
    const p = keyPage(all, (r) => resourceKeyHex(address, r.type), count.value, start.value);
    if (v === 'v1') {
      return jsonResponse(200, {
        Resources: {
          resource: p.items.map((r) => [r.type, r.tag]),
          cursor: cursorV1(live, p.more ? hexToBytes(p.lastKey) : null),
        },
      });
    }
    return jsonResponse(200, {
      resources: p.items.map((r) => ({ type: r.type, data: fieldsToJson(r.fields(chain)) })),
      cursor: p.lastKey,
    });
  };
}

/** Starts the node RPC stub on loopback. */
export async function startNodeStub(options: NodeStubOptions = {}): Promise<NodeStubHandle> {
  const seed = seedToU32(options.seed ?? 1);
  const route = createNodeRouter(seed, options.shapes ?? 'documented');
  const base = await startStubServer(
    options.host === undefined ? { port: options.port ?? 0, route } : { port: options.port ?? 0, host: options.host, route },
  );
  return Object.assign(base, { seed, accounts: STUB_ACCOUNTS, shapes: options.shapes ?? 'documented' });
}
