/**
 * The v4 reads over loopback HTTP, held to the v3 reads of the same chain: a v4 block is the v3 block at
 * that height with its transactions in their v4 form (events with hashes), and with `include_proof` each
 * transaction carries an inclusion proof whose path folds to the one root of its block. Every answer is
 * checked against the spec (strict; the live reading for the live shapes).
 */
import { validateResponse } from '@x/validators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeStub, STUB_ACCOUNTS, type NodeStubHandle } from '../src/index.ts';
import { chainFor } from '../src/node/chain.ts';
import { merkleParent } from '../src/node/v4.ts';
import { get, SEED, type Fetched } from './helpers.ts';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies in tests
const PUB = STUB_ACCOUNTS.publisher;
const LIVE = { 'x-stub-shapes': 'live' };
const START = Date.UTC(2024, 10, 20);
const chain = chainFor(SEED);
const FIRST = chain.blocks[0]!.height;

let stub: NodeStubHandle;
beforeAll(async () => {
  stub = await startNodeStub({
    seed: SEED,
    now: () => START,
    oldestBlock: 3,
    accounts: { carol: { transactions: [{ function: `${PUB}::counter::increment`, events: [{ type: `${PUB}::counter::Incremented`, data: { new_value: '1' } }] }] } },
  });
});
afterAll(async () => {
  await stub.close();
});

async function read(operationId: string, path: string, headers: Record<string, string> = {}): Promise<Fetched<Obj>> {
  const r = await get<Obj>(`${stub.url}${path}`, headers);
  const live = headers['x-stub-shapes'] === 'live';
  const result = validateResponse(operationId, r.status, r.body, live ? { strict: true, profile: 'live' } : { strict: true });
  expect(result.ok ? [] : result.issues, `${operationId} ${r.status} ${path}`).toEqual([]);
  return r;
}

const v3 = (h: number | string, q = '?with_finalized_transactions=true', headers: Record<string, string> = {}) =>
  read('getBlockByHeightV3', `/rpc/v3/block/height/${h}${q}`, headers);
const v4 = (h: number | string, q = '?with_finalized_transactions=true', headers: Record<string, string> = {}) =>
  read('getBlockByHeightV4', `/rpc/v4/block/height/${h}${q}`, headers);

/** A v3 transaction of a block as v4 has it, its events given their hashes by the v4 answer. */
function asV4(tx: Obj, v4tx: Obj): Obj {
  const events = tx.output?.Move?.events as Obj[] | undefined;
  if (events === undefined) return tx;
  const hashes = (v4tx.output.Move.events as Obj[]).map((e) => e.hash);
  const guid = (g: unknown) => (typeof g === 'string' ? { creation_number: g.slice(g.lastIndexOf(':') + 1), account_address: g.slice(0, g.lastIndexOf(':')) } : g);
  return { ...tx, output: { Move: { ...tx.output.Move, events: events.map((e, i) => ({ ...e, guid: guid(e.guid), sequence_number: String(e.sequence_number), hash: hashes[i] })) } } };
}

/** Folds a proof's path from its leaf: the root it proves. */
function fold(proof: Obj): string {
  let node = proof.leaf_hash_value as string;
  let index = proof.leaf_index as number;
  for (const sibling of proof.proof.siblings as string[]) {
    node = index % 2 === 0 ? merkleParent(node, sibling) : merkleParent(sibling, node);
    index = Math.floor(index / 2);
  }
  return node;
}

describe('getBlockByHeightV4: the v3 block in v4 form', () => {
  it.each([['documented', {}], ['live', LIVE]] as const)('%s shapes: the same header, statistics and transactions, events with their hashes', async (_, headers) => {
    const burst = chain.blocks.find((b) => b.txCount >= 4)!;
    for (const height of [burst.height, FIRST + 1, 3]) {
      const [old, now] = [(await v3(height, undefined, headers)).body, (await v4(height, undefined, headers)).body];
      expect(now.header).toEqual(old.header);
      expect(now.execution_statistics).toEqual(old.execution_statistics);
      expect(now.transactions).toHaveLength(old.transactions.length);
      now.transactions.forEach((t: Obj, i: number) => expect(t).toEqual(asV4(old.transactions[i], t)));
    }
  });

  it('a user transaction’s events carry distinct hashes', async () => {
    const [tx] = (await read('listTransactionsV3', `/rpc/v3/accounts/${stub.accounts.carol}/transactions`)).body as Obj[];
    const block = (await v4(tx!.block_header.height)).body;
    const events = block.transactions[0].output.Move.events as Obj[];
    expect(events.length).toBeGreaterThan(1);
    expect(events.map((e) => e.hash)).toEqual(events.map(() => expect.stringMatching(/^0x[0-9a-f]{64}$/)));
    expect(new Set(events.map((e) => e.hash)).size).toBe(events.length);
  });

  it('include_proof: every transaction’s path folds to its block’s one root, certified at its height; its events are the events tree’s leaves', async () => {
    const burst = chain.blocks.find((b) => b.txCount >= 3)!;
    const block = (await v4(burst.height, '?with_finalized_transactions=true&include_proof=true')).body;
    const roots = new Set<string>();
    block.transactions.forEach((t: Obj, i: number) => {
      const p = t.inclusion_proof;
      expect(p.leaf_index).toBe(i);
      expect(p.certified_at_height).toBe(burst.height);
      expect(fold(p)).toBe(p.merkle_root_hash_value);
      expect(p.events_leaves_hash_values).toEqual(t.output.Move.events.map((e: Obj) => e.hash));
      roots.add(p.merkle_root_hash_value);
    });
    expect(roots.size).toBe(1);
    const without = (await v4(burst.height)).body;
    expect(without.transactions.map((t: Obj) => 'inclusion_proof' in t)).toEqual(block.transactions.map(() => false));
  });

  it('type filters, 404 above the latest, 410 below the oldest block, 400 for a bad flag', async () => {
    const burst = chain.blocks.find((b) => b.txCount >= 1)!;
    expect((await v4(burst.height, '?with_finalized_transactions=true&type=meta')).body.transactions).toEqual([]);
    expect((await v4(burst.height, '')).body.transactions).toBe(null);
    const latest = (await read('getLatestBlockV3', '/rpc/v3/block')).body.header.height as number;
    expect((await v4(latest + 1)).status).toBe(404);
    const pruned = await v4(2);
    expect([pruned.status, pruned.headers.get('x-supra-oldest-block')]).toEqual([410, '3']);
    const bad = await get<Obj>(`${stub.url}/rpc/v4/block/height/${FIRST}?include_proof=yes`);
    expect([bad.status, bad.body.error]).toEqual([400, 'invalid_include_proof']);
  });
});
