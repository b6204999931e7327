/**
 * The v3 account API over loopback HTTP: another view of the v2 chain. Bare arrays; `txn_type` on every
 * transaction; `start` inclusive (sequence numbers) or exclusive (cursors); `ascending` both ways; the
 * `type` filter; `x-supra-cursor` and its end forms in both shapes; `x-supra-chain-id` on every v3 answer
 * (not on a live 404 of a resource read, nor on v1/v2); pruned history (410 with `x-supra-oldest-block`);
 * faults on v3 operations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fungibleStoreAddress, startNodeStub, STUB_ACCOUNT_FACTS, STUB_ACCOUNTS, type NodeStubHandle } from '../src/index.ts';
import { get, SEED, withStubCommand } from './helpers.ts';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies in tests
const { alice, publisher, framework, unknown } = STUB_ACCOUNTS;
const LIVE = { 'x-stub-shapes': 'live' };

let stub: NodeStubHandle;
beforeAll(async () => {
  stub = await startNodeStub({ seed: SEED });
});
afterAll(async () => {
  await stub.close();
});

const v3 = (address: string, rest = ''): string => `${stub.url}/rpc/v3/accounts/${address}${rest}`;
const v2 = (address: string, rest = ''): string => `${stub.url}/rpc/v2/accounts/${address}${rest}`;
const seqs = (txs: Obj[]): number[] => txs.map((t) => t.header.sequence_number as number);
const hashes = (txs: Obj[]): string[] => txs.map((t) => t.hash as string);
const range = (from: number, to: number): number[] => (from <= to ? Array.from({ length: to - from + 1 }, (_, i) => from + i) : range(to, from).reverse());

/** Walks a cursor listing by its `x-supra-cursor` header until an empty page. */
async function walkCursor(url: (start: string | undefined) => string, headers: Record<string, string> = {}): Promise<{ items: Obj[]; cursors: string[] }> {
  const items: Obj[] = [];
  const cursors: string[] = [];
  let start: string | undefined;
  for (let i = 0; i < 100; i++) {
    const r = await get<Obj[]>(url(start), headers);
    expect(r.status).toBe(200);
    if (r.body.length === 0) {
      expect(r.headers.has('x-supra-cursor')).toBe(false);
      return { items, cursors };
    }
    const cursor = r.headers.get('x-supra-cursor');
    expect(cursor).toMatch(/^[0-9]+$/);
    items.push(...r.body);
    cursors.push(cursor!);
    start = cursor!;
  }
  throw new Error('no end after 100 pages');
}

describe('v3 listings are bare arrays of v2 records tagged by txn_type', () => {
  it.each([
    ['transactions', alice, '/transactions?count=3'],
    ['coin transactions', alice, '/coin_transactions?count=3'],
    ['fungible-asset transactions', fungibleStoreAddress(alice), '/fa_transactions?count=3'],
    ['automated transactions', alice, '/automated_transactions'],
    ['modules', publisher, '/modules?count=3'],
    ['resources', publisher, '/resources?count=3'],
  ])('%s: a JSON array, no wrapper', async (_name, address, rest) => {
    for (const headers of [{}, LIVE]) {
      const r = await get<unknown>(v3(address, rest), headers);
      expect(r.status).toBe(200);
      expect(Array.isArray(r.body)).toBe(true);
      expect(r.text.startsWith('[')).toBe(true);
    }
  });

  it('a transaction is the v2 record plus txn_type user: last in the documented shape, first in the live one', async () => {
    const [d3, l3, d2, l2] = await Promise.all([
      get<Obj[]>(v3(alice, '/transactions?count=5')),
      get<Obj[]>(v3(alice, '/transactions?count=5'), LIVE),
      get<Obj>(v2(alice, '/transactions?count=5')),
      get<Obj>(v2(alice, '/transactions?count=5'), LIVE),
    ]);
    expect(d3.body.map(({ txn_type, ...rest }) => [txn_type, rest])).toEqual(d2.body.record.map((r: Obj) => ['user', r]));
    expect(l3.body.map(({ txn_type, ...rest }) => [txn_type, rest])).toEqual(l2.body.record.map((r: Obj) => ['user', r]));
    expect(Object.keys(d3.body[0]!).at(-1)).toBe('txn_type');
    expect(Object.keys(l3.body[0]!)[0]).toBe('txn_type');
    // The live forms of v2: timestamps, the sender, event guids.
    expect(l3.body[0]!.header.sender).toEqual({ Move: alice });
    expect(l3.body[0]!.block_header.timestamp).toHaveProperty('utc_date_time');
  });

  it('the system transactions of 0x1 are its own, tagged user too', async () => {
    const r = await get<Obj[]>(v3(framework, '/transactions?count=40'));
    expect(r.body).toHaveLength(40);
    expect(new Set(r.body.map((t) => t.txn_type))).toEqual(new Set(['user']));
  });

  it('the single reads answer as v2', async () => {
    const coinStore = encodeURIComponent('0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>');
    for (const [a, b] of [
      [v3(alice), v2(alice)],
      [v3(publisher, '/modules/counter'), v2(publisher, '/modules/counter')],
      [v3(alice, `/resources/${coinStore}`), v2(alice, `/resources/${coinStore}`)],
    ] as const) {
      for (const headers of [{}, LIVE]) expect((await get(a, headers)).text).toBe((await get(b, headers)).text);
    }
  });

  it('an unknown account is a 404 on every v3 operation but fungible-asset transactions', async () => {
    for (const rest of ['', '/transactions', '/coin_transactions', '/automated_transactions', '/modules', '/resources', '/modules/coin', '/resources/0x1::account::Account']) {
      const r = await get<Obj>(v3(unknown, rest));
      expect([rest, r.status, r.body.error]).toEqual([rest, 404, 'account_not_found']);
    }
    const fa = await get<Obj[]>(v3(unknown, '/fa_transactions'));
    expect([fa.status, fa.body]).toEqual([200, []]);
  });
});

describe('transactions: start is a sequence number, inclusive; descending unless ascending=true', () => {
  const sent = STUB_ACCOUNT_FACTS.alice.sent; // 150

  it.each([
    ['', range(sent - 1, sent - 20)],
    ['&ascending=false', range(sent - 1, sent - 20)],
    ['&ascending=true', range(0, 19)],
    ['&start=5', range(5, 0)],
    ['&start=5&ascending=true', range(5, 24)],
    ['&start=100&count=3', range(100, 98)],
    ['&start=100&count=3&ascending=true', range(100, 102)],
    [`&start=${sent + 50}&count=2`, range(sent - 1, sent - 2)],
    [`&start=${sent}&ascending=true`, []],
    ['&start=18446744073709551615&count=1', [sent - 1]],
    ['&count=0', []],
  ])('?%s', async (query, expected) => {
    const r = await get<Obj[]>(v3(alice, `/transactions?x=1${query}`));
    expect(r.status).toBe(200);
    expect(seqs(r.body)).toEqual(expected);
    expect(r.headers.has('x-supra-cursor')).toBe(false);
  });

  it('pages down by start = last - 1 and up by start = last + 1, each transaction once', async () => {
    const down: number[] = [];
    for (let start: number | undefined; ; ) {
      const r = await get<Obj[]>(v3(alice, `/transactions?count=40${start === undefined ? '' : `&start=${start}`}`));
      down.push(...seqs(r.body));
      const last = r.body.at(-1)?.header.sequence_number as number | undefined;
      if (last === undefined || last === 0) break;
      start = last - 1;
    }
    expect(down).toEqual(range(sent - 1, 0));
    const up: number[] = [];
    for (let start = 0; start < sent; start += 40) up.push(...seqs((await get<Obj[]>(v3(alice, `/transactions?count=40&start=${start}&ascending=true`))).body));
    expect(up).toEqual(range(0, sent - 1));
  });

  it.each([
    ['count=101', 'count_out_of_range'],
    ['start=-1', 'invalid_start'],
    ['ascending=yes', 'invalid_ascending'],
    ['ascending=true&ascending=false', 'invalid_ascending'],
  ])('%s is a 400 %s', async (query, code) => {
    const r = await get<Obj>(v3(alice, `/transactions?${query}`));
    expect([r.status, r.body.error]).toEqual([400, code]);
  });
});

describe('coin transactions: start is a cursor, exclusive; x-supra-cursor is the last one returned', () => {
  const total = STUB_ACCOUNT_FACTS.alice.coinTransactions;
  /** Every coin transaction of alice by v2, oldest first. */
  const all = async (): Promise<Obj[]> => {
    const out: Obj[] = [];
    for (let cursor = 0; ; ) {
      const page = (await get<Obj>(v2(alice, `/coin_transactions?count=100&start=${cursor}`))).body;
      if (page.record.length === 0) return out;
      out.push(...page.record);
      cursor = page.cursor;
    }
  };

  it('ascending from start=0: every coin transaction once, oldest first, in the order of v2', async () => {
    const v2All = await all();
    expect(v2All).toHaveLength(total);
    const { items, cursors } = await walkCursor((start) => v3(alice, `/coin_transactions?count=100&ascending=true&start=${start ?? 0}`));
    expect(hashes(items)).toEqual(hashes(v2All));
    expect(cursors.map(BigInt)).toEqual([...cursors.map(BigInt)].sort((a, b) => (a < b ? -1 : 1)));
  });

  it('descending (the default) from the newest: the same, newest first', async () => {
    const v2All = await all();
    const { items } = await walkCursor((start) => v3(alice, `/coin_transactions?count=99${start === undefined ? '' : `&start=${start}`}`));
    expect(hashes(items)).toEqual(hashes(v2All).reverse());
  });

  it('the cursor of a page is exclusive: the next page starts after it, both ways', async () => {
    const first = await get<Obj[]>(v3(alice, '/coin_transactions?count=3&ascending=true'));
    const cursor = first.headers.get('x-supra-cursor')!;
    const again = await get<Obj[]>(v3(alice, `/coin_transactions?count=3&ascending=true&start=${cursor}`));
    const both = await get<Obj[]>(v3(alice, '/coin_transactions?count=6&ascending=true'));
    expect(hashes([...first.body, ...again.body])).toEqual(hashes(both.body));
    // Down from the same cursor: the transactions before it, newest first.
    const down = await get<Obj[]>(v3(alice, `/coin_transactions?count=3&start=${cursor}`));
    expect(hashes(down.body)).toEqual(hashes(first.body.slice(0, 2)).reverse());
  });

  it('a start past the end is a bare [] without x-supra-cursor, in both shapes', async () => {
    for (const headers of [{}, LIVE]) {
      const r = await get<Obj[]>(v3(alice, '/coin_transactions?ascending=true&start=18446744073709551615'), headers);
      expect([r.status, r.text, r.headers.has('x-supra-cursor')]).toEqual([200, '[]', false]);
    }
  });

  it.each([
    ['', total],
    ['&type=user', total],
    ['&type=auto', 0],
    ['&type=meta', 0],
    ['&type=record', 0],
  ])('type filter %s keeps %i (every transaction of the stub is a user transaction)', async (query, n) => {
    const r = await get<Obj[]>(v3(alice, `/coin_transactions?count=100${query}`));
    expect(r.body).toHaveLength(Math.min(n, 100));
  });

  it.each([
    ['type=automated', 'invalid_type'],
    ['type=user&type=auto', 'invalid_type'],
    ['start=abc', 'invalid_start'],
    ['ascending=1', 'invalid_ascending'],
    ['count=101', 'count_out_of_range'],
  ])('%s is a 400 %s', async (query, code) => {
    const r = await get<Obj>(v3(alice, `/coin_transactions?${query}`));
    expect([r.status, r.body.error]).toEqual([400, code]);
  });
});

describe('fungible-asset transactions: the coin transactions of the owner, at its fungible store', () => {
  it('the store of an account answers its coin transactions, with the same cursors', async () => {
    const store = fungibleStoreAddress(alice);
    expect(store).toMatch(/^0x[0-9a-f]{64}$/);
    expect(fungibleStoreAddress(alice.toUpperCase().replace('0X', ''))).toBe(store);
    for (const query of ['?count=30', '?count=30&ascending=true', '?count=5&start=0&ascending=true&type=user']) {
      const [fa, coin] = await Promise.all([get<Obj[]>(v3(store, `/fa_transactions${query}`)), get<Obj[]>(v3(alice, `/coin_transactions${query}`))]);
      expect(fa.text).toBe(coin.text);
      expect(fa.headers.get('x-supra-cursor')).toBe(coin.headers.get('x-supra-cursor'));
    }
  });

  it('any other address has none: an account is not its own store', async () => {
    for (const address of [alice, '0x1', unknown]) expect((await get<Obj[]>(v3(address, '/fa_transactions'))).body).toEqual([]);
  });

  it('a malformed owner throws', () => {
    expect(() => fungibleStoreAddress('0xzz')).toThrow(expect.objectContaining({ name: 'StubArgumentError', parameter: 'owner' }));
  });
});

describe('automated transactions: the chain has none', () => {
  it.each([
    ['documented', {}, null],
    ['live', LIVE, ''],
  ] as const)('%s: [] and x-supra-cursor %j', async (_shape, headers, cursor) => {
    for (const query of ['', '?ascending=true', '?cursor=00ff&count=5', '?block_height=0', '?cursor=&block_height=7']) {
      const r = await get<Obj[]>(v3(alice, `/automated_transactions${query}`), headers);
      expect([r.status, r.body, r.headers.get('x-supra-cursor')]).toEqual([200, [], cursor]);
    }
  });

  it.each([
    ['cursor=xyz', 'invalid_cursor'],
    ['block_height=-1', 'invalid_block_height'],
    ['ascending=no', 'invalid_ascending'],
    ['count=101', 'count_out_of_range'],
  ])('%s is a 400 %s', async (query, code) => {
    const r = await get<Obj>(v3(alice, `/automated_transactions?${query}`));
    expect([r.status, r.body.error]).toEqual([400, code]);
  });
});

describe('modules and resources: x-supra-cursor to the end, in both shapes', () => {
  it.each([
    ['modules', publisher, STUB_ACCOUNT_FACTS.publisher.modules],
    ['resources', publisher, STUB_ACCOUNT_FACTS.publisher.resources],
    ['modules', framework, STUB_ACCOUNT_FACTS.framework.modules],
  ] as const)('%s of %s: the header on every page but the last; there, absent (documented) or empty (live)', async (listing, address, total) => {
    for (const [headers, end] of [
      [{}, null],
      [LIVE, ''],
    ] as const) {
      const items: Obj[] = [];
      let start: string | undefined;
      for (let i = 0; ; i++) {
        const r = await get<Obj[]>(v3(address, `/${listing}?count=7${start === undefined ? '' : `&start=${start}`}`), headers);
        items.push(...r.body);
        const cursor = r.headers.get('x-supra-cursor');
        if (items.length === total) {
          expect(cursor).toBe(end);
          break;
        }
        expect(cursor).toMatch(/^0[01][0-9a-f]+$/);
        expect(i).toBeLessThan(20);
        start = cursor!;
      }
      const v2Items = await get<Obj>(v2(address, `/${listing}?count=100`), headers);
      expect(items).toEqual(listing === 'modules' ? v2Items.body.modules : v2Items.body.resources);
    }
  });

  it('an account without any: [] with the end form', async () => {
    const [d, l] = await Promise.all([get<Obj[]>(v3(alice, '/modules')), get<Obj[]>(v3(alice, '/modules'), LIVE)]);
    expect([d.body, d.headers.get('x-supra-cursor'), l.body, l.headers.get('x-supra-cursor')]).toEqual([[], null, [], '']);
  });

  it('a malformed start is a 400', async () => {
    const r = await get<Obj>(v3(publisher, '/resources?start=xyz'));
    expect([r.status, r.body.error]).toEqual([400, 'invalid_start']);
  });
});

describe('x-supra-chain-id', () => {
  it('on every v3 answer, errors included; on v2 account answers (as the served document declares), never on v1', async () => {
    for (const rest of ['', '/transactions', '/coin_transactions?type=nope', '/modules/nope', '/resources/0x1::nope::Nope', '/automated_transactions']) {
      const r = await get(v3(alice, rest));
      expect([rest, r.headers.get('x-supra-chain-id')]).toEqual([rest, '6']);
    }
    expect((await get(`${stub.url}/rpc/v3/accounts/0xzz`)).headers.get('x-supra-chain-id')).toBe('6');
    for (const url of [v2(alice), v2(alice) + '/transactions?count=1', v2(unknown)]) expect([url, (await get(url)).headers.get('x-supra-chain-id')]).toEqual([url, '6']);
    for (const url of [`${stub.url}/rpc/v1/accounts/${alice}`, `${stub.url}/rpc/v1/accounts/${alice}/transactions?count=1`]) expect((await get(url)).headers.has('x-supra-chain-id')).toBe(false);
    expect(stub.chainId).toBe(6);
  });

  it('live: a 404 of a resource read has none (as through the provider’s proxy); other live 404s keep it', async () => {
    const missing = await get<Obj>(v3(alice, '/resources/0x1::nope::Nope'), LIVE);
    expect([missing.status, missing.body, missing.headers.has('x-supra-chain-id')]).toEqual([404, { message: expect.any(String) }, false]);
    expect((await get(v3(unknown, '/resources/0x1::account::Account'), LIVE)).headers.has('x-supra-chain-id')).toBe(false);
    expect((await get(v3(alice, '/modules/nope'), LIVE)).headers.get('x-supra-chain-id')).toBe('6');
    expect((await get(v3(alice, '/resources/0x1::nope::Nope'))).headers.get('x-supra-chain-id')).toBe('6');
  });

  it('the chainId option: the header and the chain id of every record, in every version', async () => {
    const eight = await startNodeStub({ seed: SEED, chainId: 8 });
    try {
      const r = await get<Obj[]>(`${eight.url}/rpc/v3/accounts/${alice}/transactions?count=1`);
      expect(r.headers.get('x-supra-chain-id')).toBe('8');
      expect([r.body[0]!.header.chain_id, r.body[0]!.block_header.view.epoch_id.chain_id]).toEqual([8, 8]);
      expect((await get<Obj>(`${eight.url}/rpc/v1/accounts/${alice}/transactions?count=1`)).body.record[0].header.chain_id).toBe(8);
      expect((await get<Obj>(`${eight.url}/rpc/v2/accounts/0x1/resources/0x1::chain_id::ChainId`)).body.data).toEqual({ id: 8 });
      expect((await get<Obj>(`${stub.url}/rpc/v2/accounts/0x1/resources/0x1::chain_id::ChainId`)).body.data).toEqual({ id: 6 });
      expect(eight.chainId).toBe(8);
    } finally {
      await eight.close();
    }
  });

  it.each([256, -1, 1.5, Number.NaN])('chainId %d throws', async (chainId) => {
    await expect(startNodeStub({ chainId })).rejects.toMatchObject({ name: 'StubArgumentError', parameter: 'chainId' });
  });
});

describe('pruned history: oldestBlock', () => {
  let pruned: NodeStubHandle;
  /** The block of alice's transaction 50: the oldest the pruned stub keeps. */
  let oldest: number;
  beforeAll(async () => {
    const tx50 = (await get<Obj[]>(v3(alice, '/transactions?start=50&count=1'))).body[0]!;
    oldest = tx50.block_header.height as number;
    pruned = await startNodeStub({ seed: SEED, oldestBlock: oldest });
  });
  afterAll(async () => {
    await pruned.close();
  });
  const at = (rest: string): string => `${pruned.url}/rpc/v3/accounts/${alice}${rest}`;

  /** A 410 as the node answers it: the oldest block in x-supra-oldest-block, a `{ message }` body, the chain id. */
  const expectPruned = async (url: string, headers: Record<string, string> = {}): Promise<void> => {
    const r = await get<Obj>(url, headers);
    expect([r.status, r.headers.get('x-supra-oldest-block'), r.headers.get('x-supra-chain-id')]).toEqual([410, String(oldest), '6']);
    expect(r.body).toEqual({ message: expect.stringContaining(`below block ${oldest}`) });
  };

  it('a read that starts below the oldest block is a 410, in both shapes', async () => {
    for (const headers of [{}, LIVE]) {
      await expectPruned(at('/transactions?start=0&ascending=true'), headers);
      await expectPruned(at('/transactions?start=49'), headers);
      await expectPruned(at('/coin_transactions?start=0&ascending=true'), headers);
      await expectPruned(at('/automated_transactions?block_height=0'), headers);
      await expectPruned(at(`/automated_transactions?block_height=${oldest - 1}`), headers);
    }
    expect(pruned.oldestBlock).toBe(oldest);
  });

  it('a page that runs into it ends there; ascending without start begins at the oldest kept', async () => {
    const down = await get<Obj[]>(at('/transactions?start=60&count=20'));
    expect([down.status, down.headers.get('x-supra-oldest-block')]).toEqual([200, String(oldest)]);
    expect(seqs(down.body)).toEqual(range(60, 50));
    expect(seqs((await get<Obj[]>(at('/transactions?ascending=true&count=3'))).body)).toEqual([50, 51, 52]);
    // Coin transactions: a descending walk ends with a 410 once it reaches below.
    let start: string | undefined;
    let status = 200;
    for (let i = 0; i < 50 && status === 200; i++) {
      const r = await get<Obj[]>(at(`/coin_transactions?count=100${start === undefined ? '' : `&start=${start}`}`));
      status = r.status;
      if (status === 200) {
        expect(r.body.every((t) => t.block_header.height >= oldest)).toBe(true);
        start = r.headers.get('x-supra-cursor') ?? undefined;
      }
    }
    expect(status).toBe(410);
  });

  it('the oldest block is on every history answer; a cursor makes block_height irrelevant; others are not pruned', async () => {
    expect((await get(at('/transactions'))).headers.get('x-supra-oldest-block')).toBe(String(oldest));
    expect((await get(`${stub.url}/rpc/v3/accounts/${alice}/coin_transactions`)).headers.get('x-supra-oldest-block')).toBe('0');
    expect((await get(at('/automated_transactions?block_height=0&cursor=00'))).status).toBe(200);
    expect((await get(at(`/automated_transactions?block_height=${oldest}`))).status).toBe(200);
    const fa = await get<Obj[]>(`${pruned.url}/rpc/v3/accounts/${fungibleStoreAddress(alice)}/fa_transactions?ascending=true&start=0`);
    expect([fa.status, fa.headers.has('x-supra-oldest-block')]).toEqual([200, false]);
    expect((await get(at('/modules'))).headers.has('x-supra-oldest-block')).toBe(false);
    // v1 and v2 keep their whole history.
    expect((await get<Obj>(`${pruned.url}/rpc/v2/accounts/${alice}/transactions?start=0&count=1`)).body.record).toHaveLength(1);
  });

  it.each([-1, 1.5, Number.MAX_SAFE_INTEGER + 1])('oldestBlock %d throws', async (oldestBlock) => {
    await expect(startNodeStub({ oldestBlock })).rejects.toMatchObject({ name: 'StubArgumentError', parameter: 'oldestBlock' });
  });
});

describe('faults on v3 operations', () => {
  it('failNext: a 503 (Retry-After: 1), then the answer; logged under the v3 operation id', async () => {
    stub.reset();
    stub.failNext('listCoinTransactionsV3', 503);
    const failed = await get(v3(alice, '/coin_transactions?count=1'));
    expect([failed.status, failed.headers.get('retry-after')]).toEqual([503, '1']);
    const ok = await get(v3(alice, '/coin_transactions?count=1'));
    expect([ok.status, ok.headers.get('x-supra-cursor')]).toEqual([200, expect.stringMatching(/^[0-9]+$/)]);
    expect(stub.requests.map((r) => r.operationId)).toEqual(['listCoinTransactionsV3', 'listCoinTransactionsV3']);
  });

  it('x-stub-fault on a v3 path, n times', async () => {
    const headers = { 'x-stub-fault': '503', 'x-stub-fault-times': '2', 'x-stub-fault-key': 'v3-account' };
    expect([(await get(v3(alice), headers)).status, (await get(v3(alice), headers)).status, (await get(v3(alice), headers)).status]).toEqual([503, 503, 200]);
  });
});

describe('x-stub', () => {
  it('--chain-id and --oldest-block', async () => {
    await withStubCommand(['--chain-id', '8', '--oldest-block', '1000000000'], async ({ out, nodeUrl }) => {
      expect(out).toContain('chain id 8, history from block 1000000000');
      const r = await get(`${nodeUrl}/rpc/v3/accounts/${alice}/transactions`);
      expect([r.status, r.headers.get('x-supra-chain-id'), r.headers.get('x-supra-oldest-block')]).toEqual([410, '8', '1000000000']);
    });
  });
});
