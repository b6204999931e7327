/**
 * The stubs' own test plumbing: their seed (`useNodeStub(SEED)`, `usePriceStub({ seed: SEED })` of
 * `@x-tools/test-helpers`), a plain fetch, and the shapes of the records the tests read.
 */
export const SEED = 20241119;

export interface Fetched<T> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

/** GET and parse JSON (the body is `undefined` when it is not JSON). */
export async function get<T = unknown>(url: string, headers: Record<string, string> = {}): Promise<Fetched<T>> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  let body: T;
  try {
    body = JSON.parse(text) as T;
  } catch {
    body = undefined as T;
  }
  return { status: res.status, headers: res.headers, text, body };
}

/** Minimal shapes of the records the tests read (the full types live in @x/node-types). */
export interface TxV {
  hash: string;
  header: { sender: string; sequence_number: number };
  block_header: { height: number; timestamp: { timestamp: number } } | null;
  output?: unknown;
  status: string;
}
export interface Statement {
  record: TxV[];
}
export interface CoinStatement {
  record: TxV[];
  cursor: number;
}
export interface MoveEvent {
  guid: string;
  sequence_number: number;
  type: string;
  data: unknown;
}

export function eventsOf(tx: TxV): MoveEvent[] {
  const out = tx.output;
  if (typeof out === 'object' && out !== null && 'Move' in out) {
    return (out as { Move: { events: MoveEvent[] } }).Move.events;
  }
  return [];
}

export const hexOf = (bytes: number[]): string => Buffer.from(bytes).toString('hex');
