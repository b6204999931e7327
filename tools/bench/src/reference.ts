/**
 * A hand-written validator of a v2 transactions page (`AccountStatementV2`), documented or live reading, kept
 * only to measure how far the generated validators are from the floor: the same checks as
 * `validateResponse('listTransactionsV2', 200, page, { strict })` for a verdict (types, required
 * properties, integer ranges with the unsafe-integer check, hex patterns, the enum, the exclusive
 * output union, unknown properties when strict), written as directly as JavaScript allows, with no
 * error reporting. `pnpm bench` runs it side by side with the generated validators on the same page.
 * The live reading accepts either form where specs/node-rpc.live-overlay.yaml does (timestamps, the
 * sender, an event's guid and sequence number), each checked as the overlay's observed schema says.
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const u64 = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const u8 = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 255;

/** The fastest hex-digit check measured on this machine: an unbounded regex (a 256-entry lookup table measured 0.170 against its 0.119 x JSON.parse, commit 01518f8). */
const HEX_DIGITS = /^(0x)?[0-9a-fA-F]*$/;
/** `^(0x)?[0-9a-fA-F]+$` (Hash, Identity). */
const hash = (v: unknown): boolean => typeof v === 'string' && v.length > (v.startsWith('0x') ? 2 : 0) && HEX_DIGITS.test(v);
/** `^(0x)?[0-9a-fA-F]{1,64}$` (AccountAddress). */
function address(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  const digits = v.length - (v.startsWith('0x') ? 2 : 0);
  return digits >= 1 && digits <= 64 && HEX_DIGITS.test(v);
}

const STATUS = new Set(['Success', 'Fail', 'Invalid', 'PendingAfterExecution', 'Pending']);

// Only the named keys (strict): one comparison chain per object kind, the fastest form measured.
const K = {
  page: (o: Obj): boolean => {
    for (const k in o) if (k !== 'record') return false;
    return true;
  },
  tx: (o: Obj): boolean => {
    for (const k in o) {
      if (k !== 'authenticator' && k !== 'block_header' && k !== 'hash' && k !== 'header' && k !== 'payload' && k !== 'output' && k !== 'status') return false;
    }
    return true;
  },
  block: (o: Obj): boolean => {
    for (const k in o) if (k !== 'author' && k !== 'hash' && k !== 'height' && k !== 'parent' && k !== 'timestamp' && k !== 'view') return false;
    return true;
  },
  ts: (o: Obj): boolean => {
    for (const k in o) if (k !== 'timestamp') return false;
    return true;
  },
  view: (o: Obj): boolean => {
    for (const k in o) if (k !== 'epoch_id' && k !== 'round') return false;
    return true;
  },
  epoch: (o: Obj): boolean => {
    for (const k in o) if (k !== 'chain_id' && k !== 'epoch') return false;
    return true;
  },
  header: (o: Obj): boolean => {
    for (const k in o) {
      if (k !== 'chain_id' && k !== 'expiration_timestamp' && k !== 'sender' && k !== 'sequence_number' && k !== 'gas_unit_price' && k !== 'max_gas_amount') return false;
    }
    return true;
  },
  move: (o: Obj): boolean => {
    for (const k in o) if (k !== 'gas_used' && k !== 'events' && k !== 'vm_status') return false;
    return true;
  },
  event: (o: Obj): boolean => {
    for (const k in o) if (k !== 'guid' && k !== 'sequence_number' && k !== 'type' && k !== 'data') return false;
    return true;
  },
  observedTs: (o: Obj): boolean => {
    for (const k in o) if (k !== 'microseconds_since_unix_epoch' && k !== 'utc_date_time') return false;
    return true;
  },
  observedSender: (o: Obj): boolean => {
    for (const k in o) if (k !== 'Move') return false;
    return true;
  },
  observedGuid: (o: Obj): boolean => {
    for (const k in o) if (k !== 'creation_number' && k !== 'account_address') return false;
    return true;
  },
};

const DECIMAL = /^[0-9]+$/;
const decimal = (v: unknown): boolean => typeof v === 'string' && DECIMAL.test(v);

/** The checks that differ between the readings: documented only, or either form (live). */
interface Reading {
  timestamp(v: unknown, strict: boolean): boolean;
  sender(v: unknown, strict: boolean): boolean;
  guid(v: unknown, strict: boolean): boolean;
  sequenceNumber(v: unknown): boolean;
}

const DOCUMENTED: Reading = {
  timestamp: (v, strict) => isObj(v) && u64(v.timestamp) && (!strict || K.ts(v)),
  sender: (v) => address(v),
  guid: (v) => typeof v === 'string',
  sequenceNumber: (v) => u64(v),
};

const LIVE: Reading = {
  timestamp: (v, strict) =>
    DOCUMENTED.timestamp(v, strict) ||
    (isObj(v) && u64(v.microseconds_since_unix_epoch) && typeof v.utc_date_time === 'string' && (!strict || K.observedTs(v))),
  sender: (v, strict) => address(v) || (isObj(v) && address(v.Move) && (!strict || K.observedSender(v))),
  guid: (v, strict) => typeof v === 'string' || (isObj(v) && decimal(v.creation_number) && address(v.account_address) && (!strict || K.observedGuid(v))),
  sequenceNumber: (v) => u64(v) || decimal(v),
};

function block(v: unknown, strict: boolean, r: Reading): boolean {
  if (!isObj(v)) return false;
  const view = v.view;
  if (!isObj(view) || !u64(view.round) || !isObj(view.epoch_id)) return false;
  const e = view.epoch_id;
  if (!u8(e.chain_id) || !u64(e.epoch)) return false;
  if (strict && !(K.block(v) && K.view(view) && K.epoch(e))) return false;
  return hash(v.author) && hash(v.hash) && u64(v.height) && hash(v.parent) && r.timestamp(v.timestamp, strict);
}

function header(v: unknown, strict: boolean, r: Reading): boolean {
  return (
    isObj(v) &&
    u8(v.chain_id) &&
    r.timestamp(v.expiration_timestamp, strict) &&
    r.sender(v.sender, strict) &&
    u64(v.sequence_number) &&
    u64(v.gas_unit_price) &&
    u64(v.max_gas_amount) &&
    (!strict || K.header(v))
  );
}

function output(v: unknown, strict: boolean, r: Reading): boolean {
  if (v === null || v === undefined || v === 'Empty') return true;
  if (!isObj(v)) return false;
  let key: string | undefined;
  for (const k in v) {
    if (key !== undefined) return false; // exactly one key
    key = k;
  }
  if (key === 'Dkg' || key === 'Oracle') {
    const status = v[key];
    return typeof status === 'string' && STATUS.has(status);
  }
  if (key !== 'Move') return false;
  const m = v.Move;
  if (!isObj(m) || !u64(m.gas_used) || typeof m.vm_status !== 'string' || !Array.isArray(m.events)) return false;
  if (strict && !K.move(m)) return false;
  for (const e of m.events as unknown[]) {
    if (!isObj(e) || !r.guid(e.guid, strict) || !r.sequenceNumber(e.sequence_number) || typeof e.type !== 'string' || !('data' in e)) return false;
    if (strict && !K.event(e)) return false;
  }
  return true;
}

function transaction(v: unknown, strict: boolean, r: Reading): boolean {
  if (!isObj(v) || !isObj(v.authenticator) || !isObj(v.payload)) return false;
  if (typeof v.status !== 'string' || !STATUS.has(v.status)) return false;
  if (v.block_header !== null && v.block_header !== undefined && !block(v.block_header, strict, r)) return false;
  if (strict && !K.tx(v)) return false;
  return hash(v.hash) && header(v.header, strict, r) && output(v.output, strict, r);
}

/**
 * Whether `page` is a valid v2 transactions page in the documented (default) or the live reading,
 * lenient or strict.
 *
 * @example
 * ```ts
 * referenceValidPage(JSON.parse(body), false); // true
 * referenceValidPage(JSON.parse(liveBody), true, 'live'); // true
 * ```
 */
export function referenceValidPage(page: unknown, strict: boolean, profile: 'documented' | 'live' = 'documented'): boolean {
  if (!isObj(page) || !Array.isArray(page.record)) return false;
  if (strict && !K.page(page)) return false;
  const r = profile === 'live' ? LIVE : DOCUMENTED;
  for (const tx of page.record as unknown[]) if (!transaction(tx, strict, r)) return false;
  return true;
}
