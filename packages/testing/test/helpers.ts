import { afterAll, beforeAll } from 'vitest';
import { startNodeStub, startPriceStub, type NodeStubHandle, type PriceStubHandle } from '../src/index.ts';

export const SEED = 20241119;

/** Starts a node stub for the file's tests and closes it afterwards. */
export function useNodeStub(seed: number = SEED): { readonly stub: NodeStubHandle } {
  const box = {} as { stub: NodeStubHandle };
  beforeAll(async () => {
    box.stub = await startNodeStub({ port: 0, seed });
  });
  afterAll(async () => {
    await box.stub.close();
  });
  return box;
}

export function usePriceStub(options: Parameters<typeof startPriceStub>[0] = {}): { readonly stub: PriceStubHandle } {
  const box = {} as { stub: PriceStubHandle };
  beforeAll(async () => {
    box.stub = await startPriceStub({ port: 0, seed: SEED, ...options });
  });
  afterAll(async () => {
    await box.stub.close();
  });
  return box;
}

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
