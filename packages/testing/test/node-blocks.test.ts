/**
 * Blocks and transactions by hash over loopback HTTP, held to the chain the account operations serve:
 * every transaction is in the block its `block_header` names (by height and by hash, in the block's
 * transactions and their hashes, and by its own hash); every height is a block, chained by `parent`;
 * blocks without account transactions hold one block-metadata transaction; the latest block follows the
 * stub's clock; `type` filters; 404 above the latest, 410 below the oldest block kept, 400 for what is
 * malformed. Every answer is checked against the spec (strict; the live reading for the live shapes).
 */
import { validateResponse } from '@x/validators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeStub, STUB_ACCOUNTS, type NodeStubHandle } from '../src/index.ts';
import { chainFor } from '../src/node/chain.ts';
import { get, SEED, type Fetched } from './helpers.ts';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies in tests
const PUB = STUB_ACCOUNTS.publisher;
const LIVE = { 'x-stub-shapes': 'live' };
/** 2024-11-20: some weeks after the seeded chain's history (October 2024). */
const START = Date.UTC(2024, 10, 20);
const chain = chainFor(SEED);
const FIRST = chain.blocks[0]!.height;

let clock = START;
let stub: NodeStubHandle;
beforeAll(async () => {
  stub = await startNodeStub({
    seed: SEED,
    now: () => clock,
    accounts: {
      carol: {
        transactions: [
          { to: 'alice', amount: 5 },
          { function: `${PUB}::counter::increment`, events: [{ type: `${PUB}::counter::Incremented`, data: { new_value: '1' } }] },
          { to: 'dave', amount: 7 },
        ],
      },
      dave: {},
    },
  });
});
afterAll(async () => {
  await stub.close();
});

/** GET, checked against the spec: strict in the documented shapes, the live reading in the live ones. */
async function read(operationId: string, path: string, headers: Record<string, string> = {}): Promise<Fetched<Obj>> {
  const r = await get<Obj>(`${stub.url}${path}`, headers);
  const live = headers['x-stub-shapes'] === 'live';
  const result = validateResponse(operationId, r.status, r.body, live ? { strict: true, profile: 'live' } : { strict: true });
  expect(result.ok ? [] : result.issues, `${operationId} ${r.status} ${path}`).toEqual([]);
  expect(r.headers.get('x-supra-chain-id'), path).toBe('6');
  return r;
}

/** Every transaction an account sent, as v3 lists them, oldest first. */
async function sent(address: string): Promise<Obj[]> {
  const txs: Obj[] = [];
  for (let start = 0; ; start += 100) {
    const page = (await read('listTransactionsV3', `/rpc/v3/accounts/${address}/transactions?count=100&start=${start}&ascending=true`)).body as Obj[];
    txs.push(...page);
    if (page.length < 100) return txs;
  }
}

const byHeight = (h: number | bigint, query = '?with_finalized_transactions=true', headers: Record<string, string> = {}) =>
  read('getBlockByHeightV3', `/rpc/v3/block/height/${h}${query}`, headers);

describe('every transaction is in the block its block_header names', () => {
  it.each(['framework', 'alice', 'publisher', 'exactly101', 'carol'] as const)('%s: by height, by hash, in the block’s transactions and hashes, and by its own hash', async (name) => {
    const txs = await sent(stub.accounts[name]!);
    expect(txs.length).toBeGreaterThan(0);
    for (const tx of txs) {
      const { height, hash } = tx.block_header;
      const block = (await byHeight(height)).body;
      expect(block.header).toEqual(tx.block_header);
      // In the block, the same v3 transaction without its block_header: the block is the answer.
      expect(block.transactions).toContainEqual({ ...tx, block_header: null });
      const sameBlock = (await read('getBlockV3', `/rpc/v3/block/${hash}`)).body;
      expect(sameBlock).toEqual({ header: block.header, execution_statistics: block.execution_statistics });
      expect(block.execution_statistics.user_txn_count).toBe(block.transactions.length);
      const hashes = (await read('getBlockTransactionHashesV3', `/rpc/v3/block/${hash}/transactions`)).body;
      expect(hashes).toEqual(block.transactions.map((t: Obj) => t.hash));
      expect((await read('getTransactionV3', `/rpc/v3/transactions/${tx.hash}`)).body).toEqual(tx);
    }
  });

  it('a hash is found in any spelling the path allows (no 0x, upper case)', async () => {
    const [tx] = await sent(STUB_ACCOUNTS.bob);
    const upper = tx!.hash.slice(2).toUpperCase();
    expect((await read('getTransactionV3', `/rpc/v3/transactions/${upper}`)).body).toEqual(tx);
    expect((await read('getBlockV3', `/rpc/v3/block/${tx!.block_header.hash.slice(2).toUpperCase()}`)).body.header).toEqual(tx!.block_header);
  });

  it('a block’s statistics add up its transactions', async () => {
    // A block of the busy account's bursts: several transactions.
    const burst = chain.blocks.find((b) => b.txCount >= 4)!;
    const block = (await byHeight(burst.height)).body;
    expect(block.transactions).toHaveLength(burst.txCount);
    const gas = block.transactions.reduce((sum: number, t: Obj) => sum + (t.output?.Move?.gas_used ?? 0), 0);
    const prices = block.transactions.map((t: Obj) => t.header.gas_unit_price as number);
    expect(block.execution_statistics).toEqual({
      user_txn_count: burst.txCount,
      automated_txn_count: 0,
      automation_record_count: 0,
      automated_txn_gas_unit_price: null,
      block_gas_unit_price_min: Math.min(...prices),
      block_gas_unit_price_max: Math.max(...prices),
      block_total_user_gas_used: gas,
      block_total_automated_gas_used: 0,
    });
  });
});

describe('every height is a block, chained by parent', () => {
  /** Blocks `from` to `to`, each by height; the chain rules between neighbours. */
  async function walk(from: number, to: number): Promise<Obj[]> {
    const blocks: Obj[] = [];
    for (let h = from; h <= to; h++) {
      const b = (await byHeight(h)).body;
      expect(b.header.height).toBe(h);
      const prev = blocks.at(-1);
      if (prev !== undefined) {
        expect(b.header.parent, `parent of ${h}`).toBe(prev.header.hash);
        expect(b.header.timestamp.timestamp).toBeGreaterThan(prev.header.timestamp.timestamp);
        expect(b.header.view.round).toBeGreaterThan(prev.header.view.round);
      }
      blocks.push(b);
    }
    expect(new Set(blocks.map((b) => b.header.hash)).size).toBe(blocks.length);
    return blocks;
  }

  it('from genesis, across the first transaction blocks and the gaps between them', async () => {
    const genesis = (await byHeight(0)).body;
    expect(genesis.header.parent).toBe(`0x${'0'.repeat(64)}`);
    expect((await read('getBlockV3', `/rpc/v3/block/${genesis.header.hash}`)).body.header).toEqual(genesis.header);
    const blocks = await walk(FIRST - 5, FIRST + 80);
    expect(blocks.some((b) => b.execution_statistics.user_txn_count === 0 && b.header.height > FIRST)).toBe(true);
  });

  it('a block without account transactions holds one block-metadata transaction, found by its hash', async () => {
    const gaps = (await walk(FIRST, FIRST + 60)).filter((b) => b.execution_statistics.user_txn_count === 0);
    expect(gaps.length).toBeGreaterThan(0);
    for (const b of gaps) {
      expect(b.transactions).toEqual([{ hash: expect.stringMatching(/^0x[0-9a-f]{64}$/), block_header: null, output: 'Empty', status: 'Success', txn_type: 'block_metadata' }]);
      expect(b.execution_statistics).toMatchObject({ block_gas_unit_price_min: null, block_gas_unit_price_max: null, block_total_user_gas_used: 0 });
      const { hash } = b.transactions[0];
      expect((await read('getTransactionV3', `/rpc/v3/transactions/${hash}`)).body).toEqual({ ...b.transactions[0], block_header: b.header });
      expect((await read('getBlockTransactionHashesV3', `/rpc/v3/block/${b.header.hash}/transactions`)).body).toEqual([hash]);
    }
  });

  it('after the last transaction block (the test’s own accounts’), up to the latest', async () => {
    const [lastOfCarol] = (await sent(stub.accounts.carol!)).slice(-1);
    const last = lastOfCarol!.block_header.height as number;
    const latest = (await read('getLatestBlockV3', '/rpc/v3/block')).body.header.height as number;
    expect(latest).toBeGreaterThan(last);
    await walk(last - 3, last + 20);
    const top = await walk(latest - 10, latest);
    for (const b of top) expect((await read('getBlockV3', `/rpc/v3/block/${b.header.hash}`)).body.header).toEqual(b.header);
  });
});

describe('the latest block follows the stub’s clock', () => {
  it('moves on as the clock does; the blocks it passed stay as they were', async () => {
    clock = START;
    const first = await read('getLatestBlockV3', '/rpc/v3/block');
    expect(first.headers.get('x-stub-clock')).toBe(new Date(START).toISOString());
    const latest = first.body.header.height as number;
    expect(first.body.header.timestamp.timestamp).toBeLessThanOrEqual(START * 1000);
    expect((await byHeight(latest, '')).body).toEqual({ ...first.body, transactions: null });
    const next = await read('getBlockByHeightV3', `/rpc/v3/block/height/${latest + 1}`);
    expect([next.status, next.body]).toEqual([404, { message: expect.stringContaining(`the latest is ${latest}`) }]);

    clock = START + 60_000;
    const later = (await read('getLatestBlockV3', '/rpc/v3/block')).body.header;
    // Blocks 0.4 to 1.2 s apart: a minute makes 50 to 150 of them.
    expect(later.height - latest).toBeGreaterThanOrEqual(50);
    expect(later.height - latest).toBeLessThanOrEqual(150);
    expect(later.timestamp.timestamp).toBeLessThanOrEqual(clock * 1000);
    expect((await byHeight(latest, '')).body).toEqual({ ...first.body, transactions: null });
    expect((await byHeight(latest + 1)).body.header.parent).toBe(first.body.header.hash);
    clock = START;
  });

  it('a clock before the chain’s last transaction leaves the latest block at it: history is never taken back', async () => {
    const early = await startNodeStub({ seed: SEED, now: () => Date.UTC(2020, 0, 1) });
    try {
      const latest = await get<Obj>(`${early.url}/rpc/v3/block`);
      expect(latest.body.header.height).toBe(chain.blocks.at(-1)!.height);
      expect(latest.headers.get('x-stub-clock')).toBe('2020-01-01T00:00:00.000Z');
    } finally {
      await early.close();
    }
  });

  it('only the answers that read the clock carry x-stub-clock', async () => {
    expect((await read('getBlockByHeightV3', `/rpc/v3/block/height/${FIRST}`)).headers.get('x-stub-clock')).toBe(new Date(clock).toISOString());
    expect((await read('getVersionV3', '/rpc/v3/version')).headers.has('x-stub-clock')).toBe(false);
    expect((await get(`${stub.url}/rpc/v3/accounts/${STUB_ACCOUNTS.alice}`)).headers.has('x-stub-clock')).toBe(false);
  });
});

describe('the type filter', () => {
  it.each([
    [undefined, true, true],
    ['user', true, false],
    ['meta', false, true],
    ['auto', false, false],
    ['record', false, false],
  ] as const)('type=%s keeps account transactions: %s, block-metadata transactions: %s', async (type, user, meta) => {
    const q = type === undefined ? '' : `&type=${type}`;
    const txBlock = (await byHeight(FIRST, `?with_finalized_transactions=true${q}`)).body;
    const gap = (await byHeight(0, `?with_finalized_transactions=true${q}`)).body;
    expect(txBlock.transactions.length > 0).toBe(user);
    expect(gap.transactions.length > 0).toBe(meta);
    const hashes = (await read('getBlockTransactionHashesV3', `/rpc/v3/block/${txBlock.header.hash}/transactions${q.replace('&', '?')}`)).body;
    expect(hashes).toEqual(txBlock.transactions.map((t: Obj) => t.hash));
    // A transaction of another kind than asked is not found.
    const [tx] = (await byHeight(FIRST)).body.transactions;
    const one = await read('getTransactionV3', `/rpc/v3/transactions/${tx.hash}${q.replace('&', '?')}`);
    expect(one.status).toBe(user ? 200 : 404);
  });
});

describe('what is not there, and what is malformed', () => {
  const zeros = `0x${'0'.repeat(64)}`;
  it.each([
    ['a height above the latest', 'getBlockByHeightV3', '/rpc/v3/block/height/900000000000', 404],
    ['a height above u64', 'getBlockByHeightV3', '/rpc/v3/block/height/18446744073709551616', 400],
    ['a height that is no number', 'getBlockByHeightV3', '/rpc/v3/block/height/tip', 400],
    ['with_finalized_transactions neither true nor false', 'getBlockByHeightV3', '/rpc/v3/block/height/1?with_finalized_transactions=1', 400],
    ['an unknown type', 'getBlockByHeightV3', '/rpc/v3/block/height/1?type=all', 400],
    ['an unknown block hash', 'getBlockV3', `/rpc/v3/block/${zeros}`, 404],
    ['a short block hash', 'getBlockV3', '/rpc/v3/block/0x1234', 400],
    ['the hashes of an unknown block', 'getBlockTransactionHashesV3', `/rpc/v3/block/${zeros}/transactions`, 404],
    ['an unknown transaction hash', 'getTransactionV3', `/rpc/v3/transactions/${zeros}`, 404],
    ['a transaction hash that is no hex', 'getTransactionV3', `/rpc/v3/transactions/0x${'g'.repeat(64)}`, 400],
    ['exclude_uncommitted neither true nor false', 'getTransactionV3', `/rpc/v3/transactions/${zeros}?exclude_uncommitted=yes`, 400],
  ])('%s (%s %s): %i with a message, in both shapes', async (_label, operationId, path, status) => {
    const documented = await read(operationId, path);
    const live = await read(operationId, path, LIVE);
    expect([documented.status, live.status]).toEqual([status, status]);
    expect(live.body).toEqual({ message: expect.any(String) });
    // The node's NotFound is the document's ErrorMessage; a 400 carries the stub's code too in the documented shapes.
    if (status === 404) expect(documented.body).toEqual({ message: expect.any(String) });
    else expect(documented.body).toEqual({ error: expect.stringMatching(/^invalid_/), message: expect.any(String) });
  });

  it('a block hash of a height the clock has not reached is not found yet', async () => {
    const latest = (await read('getLatestBlockV3', '/rpc/v3/block')).body.header.height as number;
    clock = START + 3_600_000;
    const ahead = (await byHeight(latest + 100)).body;
    clock = START;
    expect((await read('getBlockV3', `/rpc/v3/block/${ahead.header.hash}`)).status).toBe(404);
    expect((await read('getTransactionV3', `/rpc/v3/transactions/${ahead.transactions[0].hash}`)).status).toBe(404);
  });
});

describe('pruned history: below oldestBlock, a 410 with x-supra-oldest-block', () => {
  it('by height, by hash and for the transactions of a pruned block', async () => {
    const oldest = FIRST + 200;
    const pruned = await startNodeStub({ seed: SEED, oldestBlock: oldest, now: () => START });
    try {
      const old = (await get<Obj>(`${stub.url}/rpc/v3/block/height/${FIRST}?with_finalized_transactions=true`)).body;
      for (const path of [
        `/rpc/v3/block/height/${FIRST}`,
        `/rpc/v3/block/${old.header.hash}`,
        `/rpc/v3/block/${old.header.hash}/transactions`,
        `/rpc/v3/transactions/${old.transactions[0].hash}`,
      ]) {
        for (const headers of [{}, LIVE]) {
          const r = await get<Obj>(`${pruned.url}${path}`, headers);
          expect([r.status, r.headers.get('x-supra-oldest-block'), r.body], path).toEqual([410, String(oldest), { message: expect.stringContaining(String(oldest)) }]);
        }
      }
      const pruned410 = await get<Obj>(`${pruned.url}/rpc/v3/block/height/${oldest - 1}`);
      expect(validateResponse('getBlockByHeightV3', 410, pruned410.body, { strict: true })).toMatchObject({ ok: true });
      expect((await get(`${pruned.url}/rpc/v3/block/height/${oldest}`)).status).toBe(200);
    } finally {
      await pruned.close();
    }
  });
});

describe('the live shapes', () => {
  it('block headers with the observed timestamp; transactions tagged first, in their live forms; the same chain', async () => {
    const documented = (await byHeight(FIRST)).body;
    const live = (await byHeight(FIRST, '?with_finalized_transactions=true', LIVE)).body;
    expect(live.header.timestamp).toEqual({
      microseconds_since_unix_epoch: documented.header.timestamp.timestamp,
      utc_date_time: expect.stringMatching(/\+00:00$/),
    });
    expect(live.transactions.map((t: Obj) => t.hash)).toEqual(documented.transactions.map((t: Obj) => t.hash));
    expect(Object.keys(live.transactions[0])[0]).toBe('txn_type');
    expect(live.transactions[0].header.sender).toEqual({ Move: documented.transactions[0].header.sender });
    // The documented reading refuses the observed timestamp: the shapes differ where the overlay says.
    expect(validateResponse('getBlockByHeightV3', 200, live, { strict: true }).ok).toBe(false);
    const gap = (await byHeight(0, '?with_finalized_transactions=true', LIVE)).body;
    const meta = (await read('getTransactionV3', `/rpc/v3/transactions/${gap.transactions[0].hash}`, LIVE)).body;
    expect(Object.keys(meta)).toEqual(['txn_type', 'hash', 'block_header', 'output', 'status']);
    expect(meta.block_header).toEqual(gap.header);
  });
});
