/**
 * Walks over the network's shape: a loopback server of the test's own that answers every request a turn
 * of its event loop later (requests that arrive together are open together), from the in-memory node
 * stub (both shapes), and for one account of its own from a list of sequence numbers with gaps.
 * Concurrent and newest-first walks must give exactly the items of the page-by-page walk, hold at most
 * `concurrency` pages, and leave no request open when they end early.
 *
 * What a test says of requests in flight does not hang on timing: a test that must see requests open at
 * once holds the answers until they are (`x-hold-until`), and a test waits for a request it expects to
 * arrive rather than for a while.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNodeClient, type NodeClient } from '@x/node-client';
import { createNodeStubFetch, STUB_ACCOUNTS } from '@x/testing';
import { collect, expectInvalid, expectNoOpenHandles, rejectionOf } from '@x-tools/test-helpers';

/** The longest `x-hold-until` holds answers (real ms): a client that never opens that many then fails the check instead of hanging. */
const HOLD_MS = 2_000;
/** How long a test waits (real ms) for a request it expects not to come. */
const QUIET_MS = 40;
/** An account of this server's own: 300 sequence numbers with gaps, inside pages and at page boundaries. */
const GAPPY = '0x' + 'ab'.repeat(32);
const MISSING = new Set([57, 100, 101, 205, 239, 240, 241]);
const GAPPY_SEQS = Array.from({ length: 300 }, (_, i) => i).filter((s) => !MISSING.has(s));

type Log = { url: string; closedEarly: boolean };
/**
 * What the server saw of the current test's client: each client sends its own `x-walk` tag, so requests
 * of an earlier test that arrive late (a page fetched ahead, then cancelled) are not counted here.
 */
let tag = 0;
let log: Log[] = [];
let open = 0;
let maxOpen = 0;
let openAll = 0;
/** The current test's answers held by `x-hold-until`, and the timer that lets them go at the latest. */
const held: (() => void)[] = [];
let holdTimer: ReturnType<typeof setTimeout> | undefined;
/** Whether the current test's held answers have gone: from then on its requests are answered as any. */
let released = false;
const release = (): void => {
  released = true;
  clearTimeout(holdTimer);
  for (const go of held.splice(0)) go();
};
const stub = createNodeStubFetch({ seed: 3 });

/** Transactions of the gappy account, as the document says: ascending from `start`, else the newest, descending. */
function gappyPage(url: URL): unknown {
  const count = Number(url.searchParams.get('count') ?? 20);
  const start = url.searchParams.get('start');
  const rows = start === null ? GAPPY_SEQS.slice(-count).reverse() : GAPPY_SEQS.filter((s) => s >= Number(start)).slice(0, count);
  return { record: rows.map((s) => ({ hash: `0x${s.toString(16)}`, header: { sequence_number: s } })) };
}

async function answer(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  if (url.pathname.includes(GAPPY.slice(2)) && url.pathname.endsWith('/transactions')) {
    const text = JSON.stringify(gappyPage(url));
    res.writeHead(200, { 'content-type': 'application/json' }).end(text);
    return;
  }
  const shapes = req.headers['x-stub-shapes'];
  const r = await stub(`${stub.url}${url.pathname}${url.search}`, { headers: typeof shapes === 'string' ? { 'x-stub-shapes': shapes } : {} });
  res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' }).end(await r.text());
}

let server: ReturnType<typeof createServer>;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    const mine = req.headers['x-walk'] === String(tag);
    const entry: Log = { url: req.url ?? '/', closedEarly: false };
    openAll++;
    if (mine) {
      log.push(entry);
      maxOpen = Math.max(maxOpen, ++open);
    }
    res.on('close', () => {
      openAll--;
      if (mine) open--;
      entry.closedEarly = !res.writableFinished;
    });
    const url = new URL(req.url ?? '/', base);
    // `x-slow-ahead`: every page but the first takes long, so pages fetched ahead are still in flight.
    const slow = req.headers['x-slow-ahead'] !== undefined && url.searchParams.get('start') !== '0';
    let closed = false;
    let cancel = (): void => undefined;
    res.on('close', () => {
      closed = true;
      cancel();
    });
    const go = (): void => {
      if (closed) return;
      if (slow) {
        const timer = setTimeout(() => void answer(req, res, url), 5_000);
        cancel = () => clearTimeout(timer);
      } else {
        const immediate = setImmediate(() => void answer(req, res, url));
        cancel = () => clearImmediate(immediate);
      }
    };
    // `x-hold-until: n`: no answer of the test goes until n of its requests are open at once (or HOLD_MS passed).
    const holdUntil = Number(req.headers['x-hold-until'] ?? 0);
    if (!mine || holdUntil === 0 || released) return go();
    held.push(go);
    if (open >= holdUntil) release();
    else holdTimer ??= setTimeout(release, HOLD_MS);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
/** A new tag: the requests of the clients made from here on are the ones `log` shows. */
function freshLog(): void {
  release(); // an earlier test's held answers, if any: they go to clients that are gone
  tag++;
  log = [];
  open = 0;
  maxOpen = 0;
  released = false;
  holdTimer = undefined;
}
beforeEach(freshLog);
afterAll(async () => {
  release();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await expectNoOpenHandles();
});

const client = (shapes: 'documented' | 'live' = 'documented', headers: Record<string, string> = {}): NodeClient =>
  createNodeClient({ baseUrl: base, retry: false, headers: { 'x-stub-shapes': shapes, 'x-walk': String(tag), ...headers } });
const seqOf = (tx: unknown): number => (tx as { header: { sequence_number: number } }).header.sequence_number;
/** Waits until the server has seen every request close. */
const settled = async (): Promise<void> => {
  for (let i = 0; i < 200 && openAll > 0; i++) await new Promise((r) => setTimeout(r, 5));
  expect(openAll, 'requests still open').toBe(0);
};

type Walk = (n: NodeClient, extra: { concurrency?: number }) => AsyncIterable<unknown>;
/** Runs of missing sequence numbers: each may cost a concurrent walk up to `concurrency - 1` pages fetched in vain. */
const GAP_RUNS = [...MISSING].filter((s) => !MISSING.has(s - 1)).length;
const listings: [string, Walk][] = [];
for (const v of ['v1', 'v2'] as const) {
  listings.push(
    [`${v}.transactions alice`, (n, o) => n[v].transactions(STUB_ACCOUNTS.alice, { pageSize: 13, ...o })],
    [`${v}.transactions busy from 2300`, (n, o) => n[v].transactions(STUB_ACCOUNTS.busy, { start: 2300, pageSize: 30, ...o })],
    [`${v}.transactions exactly200`, (n, o) => n[v].transactions(STUB_ACCOUNTS.exactly200, { pageSize: 100, ...o })],
    [`${v}.transactions gappy`, (n, o) => n[v].transactions(GAPPY, { pageSize: 10, ...o })],
    [`${v}.coinTransactions alice`, (n, o) => n[v].coinTransactions(STUB_ACCOUNTS.alice, { pageSize: 9, ...o })],
    [`${v}.modules publisher`, (n, o) => n[v].modules(STUB_ACCOUNTS.publisher, { pageSize: 7, ...o })],
    [`${v}.resources publisher`, (n, o) => n[v].resources(STUB_ACCOUNTS.publisher, { pageSize: 4, ...o })],
  );
}

describe.each(['documented', 'live'] as const)('%s shapes: a concurrent walk is the sequential walk', (shapes) => {
  it.each(listings)('%s', async (label, walk) => {
    const mispredictions = label.includes('gappy') ? GAP_RUNS : 0;
    const sequential = await collect(walk(client(shapes), {}));
    const sequentialRequests = log.length;
    expect(sequential.length).toBeGreaterThan(0);
    for (const concurrency of [2, 8]) {
      freshLog();
      expect(await collect(walk(client(shapes), { concurrency }))).toEqual(sequential);
      // Pages fetched ahead past the end (and past each gap) are the only extra requests.
      expect(log.length).toBeLessThanOrEqual(sequentialRequests + (mispredictions + 1) * (concurrency - 1));
      // (After a gap, a dropped page's socket may close a moment after its replacement is sent.)
      if (mispredictions === 0) expect(maxOpen).toBeLessThanOrEqual(concurrency);
    }
    await settled();
  });
});

describe('transactions ascending, concurrently', () => {
  it('over gaps: every sequence number once, in order, the pages after a gap fetched again from the real start', async () => {
    const items = await collect(client().v2.transactions(GAPPY, { pageSize: 10, concurrency: 8 }));
    expect(items.map(seqOf)).toEqual(GAPPY_SEQS);
    // Predicted starts that a gap made wrong are dropped; the walk went on from each real next start.
    const starts = log.map((l) => Number(new URL(l.url, base).searchParams.get('start')));
    expect(starts).toContain(61); // the page from 50 skips 57 and ends at 60: the real next start is 61, not 60
    await settled();
  });

  it('from a start in the middle, to the end', async () => {
    const items = await collect(client().v1.transactions(GAPPY, { start: 150, pageSize: 20, concurrency: 4 }));
    expect(items.map(seqOf)).toEqual(GAPPY_SEQS.filter((s) => s >= 150));
  });

  it('up to limit, asking for no more than it needs', async () => {
    const items = await collect(client().v2.transactions(STUB_ACCOUNTS.busy, { pageSize: 10, limit: 25, concurrency: 8 }));
    expect(items.map(seqOf)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    // The pages asked, whatever order they arrived in (they are in flight at once): three, the last one
    // for the 5 items still needed, and nothing past the limit.
    const asked = log.map((l) => new URL(l.url, base).searchParams).map((q) => [q.get('start'), q.get('count')]);
    expect(asked.sort((x, y) => Number(x[0]) - Number(y[0]))).toEqual([
      ['0', '10'],
      ['10', '10'],
      ['20', '5'],
    ]);
  });

  it('has at most `concurrency` requests open at once, and uses them', async () => {
    // The answers wait until 6 requests are open: the walk's first 6 pages are all asked at once.
    await collect(client('documented', { 'x-hold-until': '6' }).v2.transactions(STUB_ACCOUNTS.busy, { pageSize: 50, concurrency: 6 }));
    expect(maxOpen).toBe(6);
  });

  it('an early break cancels every request in flight at once, wasting at most `concurrency`', async () => {
    const started = performance.now();
    // The first page is answered once all 8 pages asked at once have arrived: each is in flight at the break.
    const headers = { 'x-slow-ahead': '1', 'x-hold-until': '8' };
    for await (const _ of client('documented', headers).v2.transactions(STUB_ACCOUNTS.busy, { pageSize: 10, concurrency: 8 })) break;
    await settled();
    // The 7 pages fetched ahead (answered only after 5 s) were cancelled at the break, not waited for:
    // the server saw each closed before its answer, and the whole took well under those 5 s.
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(log).toHaveLength(8);
    expect(log.filter((l) => l.closedEarly)).toHaveLength(7);
  });

  it('an abort rejects with its reason and leaves no request open', async () => {
    const controller = new AbortController();
    const reason = new Error('user left the page');
    const walk = client().v2.transactions(STUB_ACCOUNTS.busy, { pageSize: 10, concurrency: 8, signal: controller.signal });
    const seen: unknown[] = [];
    const err = await rejectionOf(
      (async () => {
        for await (const tx of walk) {
          seen.push(tx);
          if (seen.length === 15) controller.abort(reason);
        }
      })(),
    );
    expect(err).toBe(reason);
    expect(seen).toHaveLength(15);
    await settled();
  });
});

describe('transactions newest first', () => {
  it.each([1, 4])('over gaps and page boundaries, concurrency %i: every sequence number once, descending', async (concurrency) => {
    const items = await collect(client().v2.transactions(GAPPY, { order: 'desc', pageSize: 10, concurrency }));
    expect(items.map(seqOf)).toEqual([...GAPPY_SEQS].reverse());
    // The newest page has no start; the others are computed windows ending below it.
    expect(new URL(log[0]!.url, base).searchParams.get('start')).toBeNull();
  });

  it.each(['alice', 'exactly100', 'exactly200', 'framework', 'empty'] as const)('%s (v1 and v2): the ascending walk reversed', async (name) => {
    for (const v of ['v1', 'v2'] as const) {
      const asc = await collect(client('live')[v].transactions(STUB_ACCOUNTS[name], { pageSize: 33 }));
      const desc = await collect(client('live')[v].transactions(STUB_ACCOUNTS[name], { order: 'desc', pageSize: 33, concurrency: 3 }));
      expect(desc).toEqual([...asc].reverse());
    }
  });

  it('stops at limit, with windows no larger than what is left', async () => {
    const items = await collect(client().v2.transactions(GAPPY, { order: 'desc', pageSize: 10, limit: 35, concurrency: 8 }));
    expect(items.map(seqOf)).toEqual([...GAPPY_SEQS].reverse().slice(0, 35));
    await settled();
  });
});

describe('cursor walks pipeline', () => {
  it('with concurrency 2, the next page is asked for before the items of the page before are consumed', async () => {
    const walk = client().v2.coinTransactions(STUB_ACCOUNTS.alice, { pageSize: 5, concurrency: 2 });
    const it = walk[Symbol.asyncIterator]();
    await it.next(); // the first page has arrived
    // The caller is slow with the first item: meanwhile the second page is asked (a wait for its arrival).
    for (let i = 0; i < 200 && log.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, QUIET_MS)); // and no third
    expect(log).toHaveLength(2);
    await it.return(undefined);
    await settled();
  });

  it('with concurrency 1, it is not', async () => {
    const it = client().v2.coinTransactions(STUB_ACCOUNTS.alice, { pageSize: 5 })[Symbol.asyncIterator]();
    await it.next();
    await new Promise((r) => setTimeout(r, QUIET_MS)); // time for a second request to arrive: none does
    expect(log).toHaveLength(1);
    await it.return(undefined);
  });
});

describe('bad walk options reject before any request', () => {
  const alice = STUB_ACCOUNTS.alice;
  const cases: [string, (n: NodeClient) => AsyncIterable<unknown>, string][] = [
    ['concurrency 0', (n) => n.v2.transactions(alice, { concurrency: 0 }), 'concurrency'],
    ['concurrency 33', (n) => n.v2.modules(alice, { concurrency: 33 }), 'concurrency'],
    ['concurrency 1.5', (n) => n.v1.coinTransactions(alice, { concurrency: 1.5 }), 'concurrency'],
    ['concurrency as text', (n) => n.v2.resources(alice, { concurrency: '4' as unknown as number }), 'concurrency'],
    ['order up', (n) => n.v2.transactions(alice, { order: 'up' as 'asc' }), 'order'],
    ['order desc with start', (n) => n.v2.transactions(alice, { order: 'desc', start: 5 } as never), 'start'],
    ['order desc on coin transactions', (n) => n.v2.coinTransactions(alice, { order: 'desc' as 'asc' }), 'order'],
    ['order desc on modules', (n) => n.v1.modules(alice, { order: 'desc' } as never), 'order'],
  ];
  it.each(cases)('%s', async (_label, walk, parameter) => {
    await expectInvalid(collect(walk(client())), parameter);
    expect(log).toEqual([]);
  });
});
