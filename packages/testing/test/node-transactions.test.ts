import { describe, expect, it } from 'vitest';
import { STUB_ACCOUNTS, STUB_ACCOUNT_FACTS, type ChainAccountName } from '../src/index.ts';
import { chainFor } from '../src/node/chain.ts';
import { txHash } from '../src/node/chain.ts';
import { useNodeStub } from '@x-tools/test-helpers';
import { type CoinStatement, eventsOf, get, SEED, type Statement, type TxV } from './helpers.ts';

const ctx = useNodeStub(SEED);
const url = (v: string, account: string, op: string, query = ''): string =>
  `${ctx.stub.url}/rpc/${v}/accounts/${account}/${op}${query}`;

const VERSIONS = ['v1', 'v2'] as const;
const LISTINGS = ['transactions', 'coin_transactions'] as const;

describe.each(VERSIONS)('%s transaction listings: count', (v) => {
  it.each(LISTINGS)('%s: default count is 20', async (op) => {
    const r = await get<Statement>(url(v, STUB_ACCOUNTS.busy, op));
    expect(r.status).toBe(200);
    expect(r.body.record).toHaveLength(20);
  });

  it.each(LISTINGS)('%s: count=100 is allowed, count=0 answers an empty record', async (op) => {
    expect((await get<Statement>(url(v, STUB_ACCOUNTS.busy, op, '?count=100'))).body.record).toHaveLength(100);
    expect((await get<Statement>(url(v, STUB_ACCOUNTS.busy, op, '?count=0&start=0'))).body.record).toEqual([]);
    expect((await get<Statement>(url(v, STUB_ACCOUNTS.busy, op, '?count=0'))).body.record).toEqual([]);
  });

  it.each([
    ['count above 100', '?count=101', 'count_out_of_range'],
    ['count far above 100', '?count=100000', 'count_out_of_range'],
    ['negative count', '?count=-1', 'invalid_count'],
    ['fractional count', '?count=2.5', 'invalid_count'],
    ['empty count', '?count=', 'invalid_count'],
    ['repeated count', '?count=1&count=2', 'invalid_count'],
    ['non-numeric start', '?start=abc', 'invalid_start'],
    ['negative start', '?start=-5', 'invalid_start'],
    ['start above u64', '?start=18446744073709551616', 'invalid_start'],
    ['hex start', '?start=0x10', 'invalid_start'],
  ])('%s is a 400 with a JSON error body', async (_label, query, code) => {
    for (const op of LISTINGS) {
      const r = await get<{ error: string; message: string }>(url(v, STUB_ACCOUNTS.busy, op, query));
      expect(r.status).toBe(400);
      expect(r.headers.get('content-type')).toContain('application/json');
      expect(r.body.error).toBe(code);
      expect(typeof r.body.message).toBe('string');
    }
  });
});

describe.each(VERSIONS)('%s transactions: sent only, by sequence number', (v) => {
  it('without start: the most recent `count`, descending', async () => {
    const r = await get<Statement>(url(v, STUB_ACCOUNTS.busy, 'transactions', '?count=5'));
    expect(r.body.record.map((t) => t.header.sequence_number)).toEqual([2499, 2498, 2497, 2496, 2495]);
  });

  it('with start: `count` from that sequence number, ascending', async () => {
    const r = await get<Statement>(url(v, STUB_ACCOUNTS.busy, 'transactions', '?count=4&start=1000'));
    expect(r.body.record.map((t) => t.header.sequence_number)).toEqual([1000, 1001, 1002, 1003]);
  });

  it('start at or past the end answers an empty record', async () => {
    expect((await get<Statement>(url(v, STUB_ACCOUNTS.busy, 'transactions', '?start=2500'))).body.record).toEqual([]);
    expect((await get<Statement>(url(v, STUB_ACCOUNTS.busy, 'transactions', '?start=18446744073709551615'))).body.record).toEqual(
      [],
    );
  });

  it('lists only transactions the account sent, all finalized, in sequence order', async () => {
    const seen: TxV[] = [];
    for (let start = 0; ; start += 100) {
      const r = await get<Statement>(url(v, STUB_ACCOUNTS.alice, 'transactions', `?count=100&start=${start}`));
      seen.push(...r.body.record);
      if (r.body.record.length < 100) break;
    }
    expect(seen).toHaveLength(STUB_ACCOUNT_FACTS.alice.sent);
    expect(seen.every((t) => t.header.sender === STUB_ACCOUNTS.alice)).toBe(true);
    expect(seen.map((t) => t.header.sequence_number)).toEqual(seen.map((_, i) => i));
    expect(seen.every((t) => t.block_header !== null && t.status !== 'Pending' && t.status !== 'PendingAfterExecution')).toBe(true);
    // Block order follows sequence order.
    const heights = seen.map((t) => (t.block_header as { height: number }).height);
    expect([...heights].sort((a, b) => a - b)).toEqual(heights);
  });

  it('an account that only received coins has no transactions', async () => {
    expect((await get<Statement>(url(v, STUB_ACCOUNTS.receiveOnly, 'transactions'))).body.record).toEqual([]);
    expect((await get<Statement>(url(v, STUB_ACCOUNTS.receiveOnly, 'transactions', '?start=0'))).body.record).toEqual([]);
  });

  it.each([
    ['exactly100', 100, [100, 0]],
    ['exactly101', 101, [100, 1, 0]],
    ['exactly200', 200, [100, 100, 0]],
  ] as const)('%s: pages of 100 from start 0 have sizes %s then stop', async (name, total, sizes) => {
    const got: number[] = [];
    const seqs: number[] = [];
    for (let start = 0; got.length < sizes.length; start += 100) {
      const r = await get<Statement>(url(v, STUB_ACCOUNTS[name], 'transactions', `?count=100&start=${start}`));
      got.push(r.body.record.length);
      seqs.push(...r.body.record.map((t) => t.header.sequence_number));
    }
    expect(got).toEqual(sizes);
    expect(seqs).toEqual(Array.from({ length: total }, (_, i) => i));
    const account = await get<{ sequence_number: number }>(`${ctx.stub.url}/rpc/${v}/accounts/${STUB_ACCOUNTS[name]}`);
    expect(account.body.sequence_number).toBe(total);
  });

  it('the framework account sent outputs of every form', async () => {
    const r = await get<Statement>(url(v, STUB_ACCOUNTS.framework, 'transactions', '?count=100&start=0'));
    const forms = new Set(r.body.record.map((t) => (typeof t.output === 'string' ? t.output : Object.keys(t.output as object)[0])));
    expect([...forms].sort()).toEqual(['Dkg', 'Empty', 'Oracle']);
    const busy = await get<Statement>(url(v, STUB_ACCOUNTS.busy, 'transactions', '?count=100&start=0'));
    expect(busy.body.record.every((t) => typeof t.output === 'object' && t.output !== null && 'Move' in t.output)).toBe(true);
    expect(new Set(busy.body.record.map((t) => t.status))).toEqual(new Set(['Success', 'Fail']));
  });
});

describe.each(VERSIONS)('%s coin_transactions: sent and received, by coin cursor', (v) => {
  const chain = chainFor(SEED);

  /** Walks every page ascending from `start`, with `count` per page. */
  async function walk(account: string, count: number, start = 0): Promise<{ pages: CoinStatement[]; txs: TxV[] }> {
    const pages: CoinStatement[] = [];
    let cursor = start;
    for (;;) {
      const r = await get<CoinStatement>(url(v, account, 'coin_transactions', `?count=${count}&start=${cursor}`));
      expect(r.status).toBe(200);
      pages.push(r.body);
      if (r.body.record.length === 0) {
        expect(r.body.cursor).toBe(cursor); // an empty page leaves the cursor where it was
        break;
      }
      cursor = r.body.cursor;
    }
    return { pages, txs: pages.flatMap((p) => p.record) };
  }

  it('the cursor of a transaction is its block timestamp plus its index in the block', async () => {
    const r = await get<CoinStatement>(url(v, STUB_ACCOUNTS.busy, 'coin_transactions', '?count=40&start=0'));
    let multi = 0;
    for (const tx of r.body.record) {
      const ts = (tx.block_header as { timestamp: { timestamp: number } }).timestamp.timestamp;
      const sender = chain.byAddress.get(tx.header.sender);
      const model = chain.txs[sender?.sent[tx.header.sequence_number] ?? -1];
      const block = chain.blocks[model?.block ?? -1];
      expect(block?.timestampUs).toBe(ts);
      expect(chain.txs[(block?.firstTx ?? 0) + (model?.indexInBlock ?? 0)]).toBe(model);
      if ((model?.indexInBlock ?? 0) > 0) multi++;
      const cursor = ts + (model?.indexInBlock ?? 0);
      const exact = await get<CoinStatement>(url(v, STUB_ACCOUNTS.busy, 'coin_transactions', `?count=1&start=${cursor}`));
      expect(exact.body.record[0]?.hash).toBe(tx.hash);
      expect(exact.body.cursor).toBe(cursor + 1);
      const after = await get<CoinStatement>(url(v, STUB_ACCOUNTS.busy, 'coin_transactions', `?count=1&start=${cursor + 1}`));
      expect(after.body.record[0]?.hash).not.toBe(tx.hash);
    }
    expect(multi).toBeGreaterThan(0); // some sit at a non-zero index of their block
  });

  it('pages continue where the previous ended: no gaps, no duplicates (busy, pages of 100)', async () => {
    const { pages, txs } = await walk(STUB_ACCOUNTS.busy, 100);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(txs).toHaveLength(STUB_ACCOUNT_FACTS.busy.coinTransactions);
    expect(new Set(txs.map((t) => t.hash)).size).toBe(txs.length);
    // Ascending by (block timestamp, index): the cursors of the model, strictly increasing.
    const model = chain.accounts.busy.coin.map((gi) => chain.txs[gi]?.cursor ?? -1);
    const ts = txs.map((t) => (t.block_header as { timestamp: { timestamp: number } }).timestamp.timestamp);
    expect([...ts].sort((a, b) => a - b)).toEqual(ts);
    for (let i = 1; i < model.length; i++) expect(model[i]).toBeGreaterThan(model[i - 1] as number);
    // Each page's cursor is the last returned transaction's cursor + 1.
    let offset = 0;
    for (const p of pages) {
      if (p.record.length === 0) continue;
      offset += p.record.length;
      expect(p.cursor).toBe((model[offset - 1] as number) + 1);
    }
  });

  it.each([7, 20, 33])('walking with count=%i yields the same sequence', async (count) => {
    const reference = (await walk(STUB_ACCOUNTS.bob, 100)).txs.map((t) => t.hash);
    const walked = (await walk(STUB_ACCOUNTS.bob, count)).txs.map((t) => t.hash);
    expect(walked).toEqual(reference);
  });

  it('include both sent and received transfers, only successful (finalized) ones', async () => {
    const { txs } = await walk(STUB_ACCOUNTS.busy, 100);
    const sent = txs.filter((t) => t.header.sender === STUB_ACCOUNTS.busy);
    const received = txs.filter((t) => t.header.sender !== STUB_ACCOUNTS.busy);
    expect(sent.length).toBeGreaterThan(0);
    expect(received.length).toBeGreaterThan(0);
    for (const t of txs) {
      expect(t.status).toBe('Success');
      const types = eventsOf(t).map((e) => e.type);
      expect(types).toContain('0x1::coin::WithdrawEvent');
      expect(types).toContain('0x1::coin::DepositEvent');
    }
    for (const t of received) {
      expect(eventsOf(t).some((e) => e.type === '0x1::coin::DepositEvent' && e.guid.startsWith(STUB_ACCOUNTS.busy))).toBe(true);
    }
    // Failed transfers and calls the account sent are in `transactions` but not here.
    expect(sent.length).toBeLessThan(STUB_ACCOUNT_FACTS.busy.sent);
  });

  it('an account that only received coins has coin transactions, none sent by it', async () => {
    const { txs } = await walk(STUB_ACCOUNTS.receiveOnly, 100);
    expect(txs).toHaveLength(STUB_ACCOUNT_FACTS.receiveOnly.coinTransactions);
    expect(txs.length).toBeGreaterThan(0);
    expect(txs.every((t) => t.header.sender !== STUB_ACCOUNTS.receiveOnly)).toBe(true);
  });

  it('without start: the `count` most recent, descending; the cursor continues after the newest', async () => {
    const all = (await walk(STUB_ACCOUNTS.busy, 100)).txs;
    const r = await get<CoinStatement>(url(v, STUB_ACCOUNTS.busy, 'coin_transactions', '?count=25'));
    expect(r.body.record.map((t) => t.hash)).toEqual(all.slice(-25).reverse().map((t) => t.hash));
    const newest = chain.txs[chain.accounts.busy.coin.at(-1) as number];
    expect(r.body.cursor).toBe((newest?.cursor as number) + 1);
    // Paging on from it: nothing newer yet, and the cursor stays.
    const next = await get<CoinStatement>(url(v, STUB_ACCOUNTS.busy, 'coin_transactions', `?start=${r.body.cursor}`));
    expect(next.body).toEqual({ record: [], cursor: r.body.cursor });
  });

  it('a start between two cursors begins at the later transaction', async () => {
    const cursors = chain.accounts.busy.coin.map((gi) => chain.txs[gi]?.cursor ?? -1);
    const k = cursors.findIndex((c, i) => i > 0 && c - (cursors[i - 1] as number) > 1);
    expect(k).toBeGreaterThan(0);
    const between = (cursors[k] as number) - 1;
    expect(between).toBeGreaterThan(cursors[k - 1] as number);
    const r = await get<CoinStatement>(url(v, STUB_ACCOUNTS.busy, 'coin_transactions', `?count=2&start=${between}`));
    expect(r.body.record.map((t) => t.hash)).toEqual([k, k + 1].map((i) => txHash(SEED, chain.accounts.busy.coin[i] as number)));
    expect(r.body.cursor).toBe((cursors[k + 1] as number) + 1);
  });

  it.each([
    ['exactly100', [100, 0]],
    ['exactly101', [100, 1, 0]],
    ['exactly200', [100, 100, 0]],
  ] as const)('%s: pages of 100 have sizes %s', async (name, sizes) => {
    const { pages } = await walk(STUB_ACCOUNTS[name], 100);
    expect(pages.map((p) => p.record.length)).toEqual(sizes);
  });

  it('an empty listing answers cursor 0 without start and the start itself with one (exact u64 text)', async () => {
    expect((await get<CoinStatement>(url(v, STUB_ACCOUNTS.empty, 'coin_transactions'))).body).toEqual({ record: [], cursor: 0 });
    const big = '18446744073709551615';
    const r = await get<CoinStatement>(url(v, STUB_ACCOUNTS.busy, 'coin_transactions', `?start=${big}`));
    expect(r.text).toBe(`{"record":[],"cursor":${big}}`);
  });
});

describe('same ordering in v1 and v2', () => {
  it.each(['busy', 'alice', 'exactly101'] satisfies ChainAccountName[])('%s: same hashes in both versions', async (name) => {
    for (const op of LISTINGS) {
      const a = await get<Statement>(url('v1', STUB_ACCOUNTS[name], op, '?count=100&start=0'));
      const b = await get<Statement>(url('v2', STUB_ACCOUNTS[name], op, '?count=100&start=0'));
      expect(a.body.record.map((t) => t.hash)).toEqual(b.body.record.map((t) => t.hash));
    }
  });
});
