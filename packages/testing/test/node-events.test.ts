/**
 * Events by type (`listEventsV3`) over loopback HTTP: they are the events of the chain's transactions,
 * read off every block (by height, with its transactions), in (height, transaction, event) order; walked
 * by the `x-supra-cursor` header, sent on every page, to an empty page; `start_height` inclusive,
 * `end_height` exclusive, `limit` (default 20, at most 100); 400 for what is malformed, 410 for a range
 * wholly pruned. Every answer is checked against the spec, strictly.
 */
import { validateResponse } from '@x/validators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeStub, STUB_ACCOUNTS, type NodeStubHandle } from '../src/index.ts';
import { chainFor } from '../src/node/chain.ts';
import { get, SEED, type Fetched } from './helpers.ts';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies in tests
const PUB = STUB_ACCOUNTS.publisher;
const LIVE = { 'x-stub-shapes': 'live' };
const chain = chainFor(SEED);
/** A type of the test's own account, its address written long: the listing knows it by its canonical form. */
const SCORED = `0x${'0'.repeat(62)}c0::game::Scored`;

let stub: NodeStubHandle;
/** The events of every block, by type, as the blocks' transactions carry them. */
const expected = new Map<string, Obj[]>();
let lastHeight = 0;

beforeAll(async () => {
  stub = await startNodeStub({
    seed: SEED,
    now: () => Date.UTC(2024, 10, 20),
    accounts: {
      carol: {
        transactions: [
          { function: '0xc0::game::score', events: [{ type: SCORED, data: { points: '3' } }, { type: SCORED, data: { points: '4' } }] },
          { to: 'alice' },
          { function: '0xc0::game::score', events: [{ type: SCORED, data: { points: '5' } }] },
        ],
      },
    },
  });
  const carol = (await get<Obj[]>(`${stub.url}/rpc/v3/accounts/${stub.accounts.carol}/transactions?count=100`)).body;
  lastHeight = Math.max(...carol.map((t) => t.block_header.height as number));
  for (let h = chain.blocks[0]!.height; h <= lastHeight; h++) {
    const block = (await get<Obj>(`${stub.url}/rpc/v3/block/height/${h}?with_finalized_transactions=true`)).body;
    for (const tx of block.transactions as Obj[]) {
      for (const e of (tx.output?.Move?.events ?? []) as Obj[]) {
        const [address, creation] = [e.guid.slice(0, e.guid.lastIndexOf(':')), e.guid.slice(e.guid.lastIndexOf(':') + 1)];
        const type = e.type === SCORED ? '0xc0::game::Scored' : e.type;
        const list = expected.get(type) ?? [];
        expected.set(type, list);
        list.push({
          event: { guid: { creation_number: creation, account_address: address }, sequence_number: String(e.sequence_number), type: e.type, data: e.data },
          block_height: h,
          transaction_hash: tx.hash,
        });
      }
    }
  }
}, 60_000);
afterAll(async () => {
  await stub.close();
});

async function read(path: string, headers: Record<string, string> = {}): Promise<Fetched<Obj>> {
  const r = await get<Obj>(`${stub.url}${path}`, headers);
  const live = headers['x-stub-shapes'] === 'live';
  const result = validateResponse('listEventsV3', r.status, r.body, live ? { strict: true, profile: 'live' } : { strict: true });
  expect(result.ok ? [] : result.issues, `${r.status} ${path}`).toEqual([]);
  expect(r.headers.get('x-supra-chain-id')).toBe('6');
  return r;
}

/** Walks the events of `type` by the header cursor until an empty page; the events and every page's cursor. */
async function walk(type: string, query: string, headers: Record<string, string> = {}): Promise<{ events: Obj[]; cursors: string[]; pages: number }> {
  const events: Obj[] = [];
  const cursors: string[] = [];
  let start: string | undefined;
  for (let pages = 1; pages <= 500; pages++) {
    const r = await read(`/rpc/v3/events/${encodeURIComponent(type)}?${query}${start === undefined ? '' : `&start=${start}`}`, headers);
    expect(r.status).toBe(200);
    const cursor = r.headers.get('x-supra-cursor');
    // On every page: the last event's position, or (an empty page) the start it was given.
    expect(cursor, `page ${pages}`).not.toBeNull();
    expect(r.headers.get('x-supra-oldest-block')).toBe('0');
    if (r.body.data.length === 0) {
      expect(cursor).toBe(start ?? '');
      return { events, cursors, pages };
    }
    expect(cursor).toMatch(/^[0-9a-f]{32}$/);
    events.push(...r.body.data);
    cursors.push(cursor!);
    start = cursor!;
  }
  throw new Error('no end after 500 pages');
}

describe('the events of a type are those of the chain’s transactions, walked to an empty page', () => {
  it.each([
    ['0x1::coin::WithdrawEvent', 100],
    ['0x1::coin::DepositEvent', 100],
    ['0x1::transaction_fee::FeeStatement', 100],
    [`${PUB}::counter::Incremented`, 13],
    ['0x1::code::PublishPackage', 45],
    ['0xc0::game::Scored', 2],
  ])('%s, %i a page', async (type, limit) => {
    const all = expected.get(type) ?? [];
    expect(all.length).toBeGreaterThan(0);
    const { events, cursors, pages } = await walk(type, `limit=${limit}`);
    expect(events).toEqual(all);
    expect(pages).toBe(Math.ceil(all.length / limit) + 1);
    // Each page starts after the last event of the one before: no repeats, nothing left out, cursors ascending.
    expect([...cursors].sort()).toEqual(cursors);
    expect(new Set(cursors).size).toBe(cursors.length);
  });

  it('the same in the live shapes: EventV3 is one form', async () => {
    const documented = await read('/rpc/v3/events/0x1::coin::DepositEvent?limit=50');
    const live = await read('/rpc/v3/events/0x1::coin::DepositEvent?limit=50', LIVE);
    expect(live.text).toBe(documented.text);
    expect(live.headers.get('x-supra-cursor')).toBe(documented.headers.get('x-supra-cursor'));
  });

  it('a type is known in any spelling of its address; an unknown type has no events', async () => {
    const canonical = (await read('/rpc/v3/events/0x1::coin::WithdrawEvent')).text;
    expect((await read('/rpc/v3/events/1::coin::WithdrawEvent')).text).toBe(canonical);
    expect((await read('/rpc/v3/events/0x0001::coin::WithdrawEvent')).text).toBe(canonical);
    expect((await read(`/rpc/v3/events/${encodeURIComponent(SCORED)}?limit=100`)).body.data).toEqual(expected.get('0xc0::game::Scored'));
    const none = await read('/rpc/v3/events/0x1::nothing::Happened');
    expect([none.body, none.headers.get('x-supra-cursor')]).toEqual([{ data: [] }, '']);
  });

  it('limit: 20 by default, 0 an empty page that keeps the cursor where it was', async () => {
    const first = await read('/rpc/v3/events/0x1::coin::WithdrawEvent');
    expect(first.body.data).toEqual(expected.get('0x1::coin::WithdrawEvent')!.slice(0, 20));
    const cursor = first.headers.get('x-supra-cursor')!;
    const zero = await read(`/rpc/v3/events/0x1::coin::WithdrawEvent?limit=0&start=${cursor}`);
    expect([zero.body.data, zero.headers.get('x-supra-cursor')]).toEqual([[], cursor]);
    expect((await read(`/rpc/v3/events/0x1::coin::WithdrawEvent?limit=100&start=${cursor.toUpperCase()}`)).body.data[0]).toEqual(expected.get('0x1::coin::WithdrawEvent')![20]);
  });
});

describe('start_height (inclusive) and end_height (exclusive)', () => {
  const type = '0x1::coin::WithdrawEvent';
  const heights = (): number[] => [...new Set(expected.get(type)!.map((e) => e.block_height as number))];
  const within = (from: number, to: number): Obj[] => expected.get(type)!.filter((e) => e.block_height >= from && e.block_height < to);

  it.each([
    ['one block', (h: number[]) => [h[10]!, h[10]! + 1]],
    ['the block of start_height, not that of end_height', (h: number[]) => [h[10]!, h[20]!]],
    ['from a height between blocks', (h: number[]) => [h[10]! + 1, h[40]!]],
    ['an empty range', (h: number[]) => [h[10]!, h[10]!]],
  ])('%s', async (_label, range) => {
    const [from, to] = range(heights());
    const { events } = await walk(type, `limit=7&start_height=${from}&end_height=${to}`);
    expect(events).toEqual(within(from!, to!));
  });

  it('only start_height: to the end; only end_height: from the beginning', async () => {
    const h = heights();
    expect((await walk(type, `limit=100&start_height=${h[50]}`)).events).toEqual(within(h[50]!, Infinity));
    expect((await walk(type, `limit=100&end_height=${h[50]}`)).events).toEqual(within(0, h[50]!));
  });
});

describe('what is malformed is a 400 with a message', () => {
  it.each([
    ['limit over 100', '/rpc/v3/events/0x1::coin::WithdrawEvent?limit=101'],
    ['limit no number', '/rpc/v3/events/0x1::coin::WithdrawEvent?limit=ten'],
    ['limit negative', '/rpc/v3/events/0x1::coin::WithdrawEvent?limit=-1'],
    ['limit twice', '/rpc/v3/events/0x1::coin::WithdrawEvent?limit=1&limit=2'],
    ['a cursor that is no hex', '/rpc/v3/events/0x1::coin::WithdrawEvent?start=zz'],
    ['a cursor of another length', `/rpc/v3/events/0x1::coin::WithdrawEvent?start=${'0'.repeat(31)}`],
    ['end_height below start_height', '/rpc/v3/events/0x1::coin::WithdrawEvent?start_height=10&end_height=9'],
    ['start_height no u64', '/rpc/v3/events/0x1::coin::WithdrawEvent?start_height=18446744073709551616'],
    ['a type without a struct name', '/rpc/v3/events/0x1::coin'],
    ['a type without an address', '/rpc/v3/events/coin::WithdrawEvent'],
    ['a type with an unclosed argument', `/rpc/v3/events/${encodeURIComponent('0x1::coin::CoinStore<0x1::a::B')}`],
  ])('%s', async (_label, path) => {
    const documented = await read(path);
    const live = await read(path, LIVE);
    expect([documented.status, live.status]).toEqual([400, 400]);
    expect(documented.body).toEqual({ error: expect.stringMatching(/^invalid_|_out_of_range$/), message: expect.any(String) });
    expect(live.body).toEqual({ message: documented.body.message });
  });
});

describe('pruned history', () => {
  it('a range wholly below oldestBlock is a 410 with x-supra-oldest-block; one reaching above it starts there', async () => {
    const all = expected.get('0x1::coin::WithdrawEvent')!;
    const oldest = all[100]!.block_height as number;
    const pruned = await startNodeStub({ seed: SEED, oldestBlock: oldest });
    try {
      for (const headers of [{}, LIVE]) {
        const gone = await get<Obj>(`${pruned.url}/rpc/v3/events/0x1::coin::WithdrawEvent?start_height=0&end_height=${oldest}`, headers);
        expect([gone.status, gone.headers.get('x-supra-oldest-block'), gone.body]).toEqual([410, String(oldest), { message: expect.stringContaining(String(oldest)) }]);
        expect(validateResponse('listEventsV3', 410, gone.body, { strict: true })).toMatchObject({ ok: true });
      }
      const kept = await get<Obj>(`${pruned.url}/rpc/v3/events/0x1::coin::WithdrawEvent?limit=100&end_height=${oldest + 1}`);
      expect([kept.status, kept.headers.get('x-supra-oldest-block')]).toEqual([200, String(oldest)]);
      expect(kept.body.data).toEqual(all.filter((e) => e.block_height === oldest));
      const first = await get<Obj>(`${pruned.url}/rpc/v3/events/0x1::coin::WithdrawEvent?limit=1`);
      expect(first.body.data).toEqual([all.find((e) => e.block_height >= oldest)]);
    } finally {
      await pruned.close();
    }
  });
});
