import { describe, expect, it } from 'vitest';
import { createNodeClient, HttpError, type NodeClient } from '@x/node-client';
import {
  moduleKeyHex,
  resourceKeyHex,
  PUBLISHER_MODULES,
  STUB_ACCOUNTS,
  STUB_ACCOUNT_FACTS,
  type ChainAccountName,
} from '@x/testing';
import { collect, rejectionOf, useNodeStub } from '@x-tools/test-helpers';
import { json, queryOf, startBadServer } from './helpers.ts';

const ctx = useNodeStub();
const node = (): NodeClient => createNodeClient({ baseUrl: ctx.stub.url, retry: false });
const versions = ['v1', 'v2'] as const;
/** `[count, start]` of every request the stub received, in order. */
const pages = (): [string | null, string | null][] => ctx.stub.requests.map((r) => [queryOf(r.url, 'count'), queryOf(r.url, 'start')]);

type Tx = { hash: string; header: { sequence_number: number }; block_header?: { timestamp: { timestamp: number } } | null };

describe.each(versions)('%s.transactions', (v) => {
  it.each([
    // account, pageSize, requests as [count, start]
    ['exactly100', 100, [['100', '0'], ['100', '100']]],
    ['exactly101', 100, [['100', '0'], ['100', '100']]],
    ['exactly200', 100, [['100', '0'], ['100', '100'], ['100', '200']]],
    ['alice', 40, [['40', '0'], ['40', '40'], ['40', '80'], ['40', '120']]],
    ['framework', 10, [['10', '0'], ['10', '10'], ['10', '20'], ['10', '30'], ['10', '40']]],
    ['empty', 100, [['100', '0']]],
  ] as const)('%s with pages of %i: every transaction once, ascending', async (name, pageSize, requests) => {
    const items = (await collect(node()[v].transactions(STUB_ACCOUNTS[name], { pageSize }))) as Tx[];
    const { sent } = STUB_ACCOUNT_FACTS[name];
    expect(items.map((t) => t.header.sequence_number)).toEqual(Array.from({ length: sent }, (_, i) => i));
    expect(pages()).toEqual(requests);
  });

  it('starts at start and defaults to pages of 100', async () => {
    const items = (await collect(node()[v].transactions(STUB_ACCOUNTS.busy, { start: '2350' }))) as Tx[];
    expect(items.map((t) => t.header.sequence_number)).toEqual(Array.from({ length: 150 }, (_, i) => 2350 + i));
    expect(pages()).toEqual([['100', '2350'], ['100', '2450']]);
  });

  it('stops at limit, asking only for what is left', async () => {
    const items = await collect(node()[v].transactions(STUB_ACCOUNTS.busy, { limit: 250 }));
    expect(items).toHaveLength(250);
    expect(pages()).toEqual([['100', '0'], ['100', '100'], ['50', '200']]);
  });
});

describe.each(versions)('%s.coinTransactions', (v) => {
  it.each([
    // account, pageSize, pages (the last request answers an empty page)
    ['exactly100', 100, 2],
    ['exactly101', 100, 3],
    ['exactly200', 100, 3],
    ['receiveOnly', 100, 8],
    ['alice', 100, 10],
  ] as const)('%s with pages of %i: every coin transaction once, following the cursor', async (name, pageSize, requests) => {
    const items = (await collect(node()[v].coinTransactions(STUB_ACCOUNTS[name], { pageSize }))) as Tx[];
    expect(items).toHaveLength(STUB_ACCOUNT_FACTS[name].coinTransactions);
    expect(new Set(items.map((t) => t.hash)).size).toBe(items.length);
    const times = items.map((t) => t.block_header!.timestamp.timestamp);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(ctx.stub.requests).toHaveLength(requests);
  });

  it('sends back exactly the cursor each page returned', async () => {
    const account = STUB_ACCOUNTS.exactly200;
    await collect(node()[v].coinTransactions(account, { pageSize: 100 }));
    const starts = pages().map(([, start]) => start);
    ctx.stub.reset();
    // The same walk by hand, reading each page's cursor.
    const expected = ['0'];
    for (let i = 0; i < 2; i++) {
      const page = await node()[v].listCoinTransactions(account, { count: 100, start: expected.at(-1)! });
      expected.push(String(page.cursor));
    }
    expect(starts).toEqual(expected);
  });

  it('resumes from a given cursor and honours limit', async () => {
    const account = STUB_ACCOUNTS.alice;
    const first = await node()[v].listCoinTransactions(account, { count: 10, start: 0 });
    ctx.stub.reset();
    const items = (await collect(node()[v].coinTransactions(account, { start: BigInt(first.cursor), limit: 5, pageSize: 3 }))) as Tx[];
    expect(items).toHaveLength(5);
    expect(pages()).toEqual([['3', String(first.cursor)], ['2', expect.any(String)]]);
  });
});

/** The ground truth of a listing: module names and resource types in the stub's (key) order. */
const moduleNames = [...PUBLISHER_MODULES].sort();
const nameOf = (v: 'v1' | 'v2', item: unknown): string =>
  v === 'v1' ? (item as [string, { name: string }])[1].name : (item as { abi: { name: { identifier: string } } }).abi.name.identifier;
const typeOf = (v: 'v1' | 'v2', item: unknown): string =>
  v === 'v1' ? (item as [string])[0] : (item as { type: string }).type;

describe.each(versions)('%s.modules', (v) => {
  it.each([
    // pageSize, requests: v1 and v2 both answer a null cursor when nothing follows
    [10, 5],
    [15, 3], // an exact multiple: the third page is full and still the last
    [100, 1],
  ])('publisher (45 modules) with pages of %i: %i requests', async (pageSize, requests) => {
    const items = await collect(node()[v].modules(STUB_ACCOUNTS.publisher, { pageSize }));
    expect(items.map((m) => nameOf(v, m))).toEqual(moduleNames);
    expect(ctx.stub.requests).toHaveLength(requests);
  });

  it('sends each cursor back as the stub expects it (v1: lowercase hex of the bytes; v2: as given)', async () => {
    await collect(node()[v].modules(STUB_ACCOUNTS.publisher, { pageSize: 15 }));
    const starts = pages().map(([, start]) => start);
    const key = (i: number): string => moduleKeyHex(STUB_ACCOUNTS.publisher, moduleNames[i]!);
    expect(starts).toEqual([null, key(14), key(29)]);
    expect(starts.slice(1).every((s) => /^[0-9a-f]+$/.test(s!))).toBe(true);
  });

  it('starts from a given cursor', async () => {
    const start = moduleKeyHex(STUB_ACCOUNTS.publisher, moduleNames[39]!);
    const items = await collect(node()[v].modules(STUB_ACCOUNTS.publisher, { start, pageSize: 2 }));
    expect(items.map((m) => nameOf(v, m))).toEqual(moduleNames.slice(40));
    expect(ctx.stub.requests).toHaveLength(3);
  });
});

describe.each(versions)('%s.resources', (v) => {
  it.each([
    // account, pageSize, requests for v1 (null cursor after the last page) and v2 (a cursor on every
    // non-empty page, so the walk ends on the empty page after the last)
    ['publisher', 10, 3, 4],
    ['framework', 2, 3, 4], // 6 resources: three exact pages
    ['alice', 1, 3, 4],
    ['empty', 10, 1, 1],
  ] as const)('%s with pages of %i', async (name: ChainAccountName, pageSize, v1Requests, v2Requests) => {
    const account = STUB_ACCOUNTS[name];
    const items = await collect(node()[v].resources(account, { pageSize }));
    expect(items).toHaveLength(STUB_ACCOUNT_FACTS[name].resources);
    const types = items.map((r) => typeOf(v, r));
    expect(new Set(types).size).toBe(types.length);
    expect(ctx.stub.requests).toHaveLength(v === 'v1' ? v1Requests : v2Requests);
    if (types.length > 1) expect(pages()[1]![1]).toBe(resourceKeyHex(account, types[pageSize - 1]!));
  });
});

describe('iteration ends', () => {
  it('after limit items, without asking further', async () => {
    const it = node().v2.transactions(STUB_ACCOUNTS.busy, { pageSize: 10, limit: 3 });
    expect(await collect(it)).toHaveLength(3);
    expect(pages()).toEqual([['3', '0']]);
  });

  it('at once with limit 0', async () => {
    expect(await collect(node().v2.modules(STUB_ACCOUNTS.publisher, { limit: 0 }))).toEqual([]);
    expect(ctx.stub.requests).toEqual([]);
  });

  it('when the loop breaks: no further request', async () => {
    let n = 0;
    for await (const _tx of node().v2.transactions(STUB_ACCOUNTS.busy, { pageSize: 10 })) if (++n === 15) break;
    expect(ctx.stub.requests).toHaveLength(2);
  });

  it('with the error of a page: v2 of an unknown account is a 404', async () => {
    const err = await rejectionOf(collect(node().v2.transactions(STUB_ACCOUNTS.unknown)));
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(404);
  });

  it.each(['transactions', 'coinTransactions', 'modules', 'resources'] as const)('v1.%s of an unknown account is empty', async (name) => {
    expect(await collect(node().v1[name](STUB_ACCOUNTS.unknown))).toEqual([]);
    expect(ctx.stub.requests).toHaveLength(1);
  });
});

describe('no iterator loops forever, whatever the server answers', () => {
  const tx = (seq: number): Tx => ({ hash: `0x${seq}`, header: { sequence_number: seq } });
  // Each server answers every page with items and a cursor that goes nowhere new. The walk ends where the
  // rule says (a cursor that repeats, goes back or is zero), quietly, without yielding an item again; a
  // page out of sequence (one starting below the start asked) stops it with an error.
  const QUIET = 'quietly';
  const REPEAT = 'with ResponseShapeError';
  const servers: [label: string, walk: (n: NodeClient) => AsyncIterable<unknown>, answer: (url: URL) => unknown, requests: number, ends: string][] = [
    ['coin cursor that repeats', (n) => n.v2.coinTransactions('0x1'), () => ({ record: [tx(1)], cursor: 7 }), 2, QUIET],
    ['coin cursor that goes back', (n) => n.v1.coinTransactions('0x1', { start: 100 }), () => ({ record: [tx(1)], cursor: 50 }), 1, QUIET],
    ['coin cursor 0', (n) => n.v2.coinTransactions('0x1', { start: 5 }), () => ({ record: [tx(1)], cursor: 0 }), 1, QUIET],
    ['coin cursor missing', (n) => n.v2.coinTransactions('0x1'), () => ({ record: [tx(1)] }), 1, QUIET],
    [
      'full transaction pages that do not advance',
      (n) => n.v2.transactions('0x1', { pageSize: 2 }),
      () => ({ record: [tx(0), tx(1)] }),
      2,
      REPEAT,
    ],
    [
      'v2 module cursor that repeats',
      (n) => n.v2.modules('0x1'),
      () => ({ modules: [{ bytecode: '0x00', abi: {} }], cursor: 'aa' }),
      2,
      QUIET,
    ],
    [
      'v2 module cursors in a cycle',
      (n) => n.v2.modules('0x1'),
      (url) => ({ modules: [{ bytecode: `0x${url.searchParams.get('start') ?? ''}`, abi: {} }], cursor: url.searchParams.get('start') === 'aa' ? 'bb' : 'aa' }),
      3,
      QUIET,
    ],
    [
      'v2 resource cursor echoed on full pages',
      (n) => n.v2.resources('0x1', { start: 'cc' }),
      () => ({ resources: [{ type: '0x1::a::B', data: {} }], cursor: 'cc' }),
      1,
      QUIET,
    ],
    [
      'v1 cursor bytes that repeat',
      (n) => n.v1.resources('0x1'),
      () => ({ Resources: { resource: [['0x1::a::B', {}]], cursor: [1, 2, 255] } }),
      2,
      QUIET,
    ],
    // A v1 answer of the other listing kind is a ResponseShapeError: see malformed-pages.test.ts.
  ];

  it.each(servers)('%s: %i requests, ends %s', async (_label, walk, answer, requests, ends) => {
    const bad = await startBadServer((url, res) => json(res, answer(url)));
    try {
      const client = createNodeClient({ baseUrl: bad.url, retry: false });
      const items: unknown[] = [];
      const err = await (async () => {
        for await (const item of walk(client)) items.push(item);
      })().then(() => undefined, (e: unknown) => e);
      if (ends === QUIET) expect(err).toBeUndefined();
      else expect(err).toMatchObject({ name: 'ResponseShapeError', code: 'RESPONSE_SHAPE_ERROR' });
      // Never an item twice, either way.
      expect(new Set(items.map((i) => JSON.stringify(i))).size).toBe(items.length);
      expect(bad.requests).toHaveLength(requests);
    } finally {
      await bad.close();
    }
  });

  it('sends a repeated v1 cursor as lowercase hex before stopping', async () => {
    const bad = await startBadServer((_url, res) => json(res, { Modules: { modules: [['0x1::m', { address: '0x1', name: 'm' }]], cursor: [0, 171, 255] } }));
    try {
      // The second page repeats the first (its module too): the walk ends there, yielding the module once.
      expect(await collect(createNodeClient({ baseUrl: bad.url }).v1.modules('0x1'))).toHaveLength(1);
      expect(bad.requests.map((u) => queryOf(u, 'start'))).toEqual([null, '00abff']);
    } finally {
      await bad.close();
    }
  });
});

describe('aborting an iteration', () => {
  it('between items rejects the next step with the reason and sends nothing more', async () => {
    const controller = new AbortController();
    const reason = new Error('enough');
    const seen: unknown[] = [];
    const err = await rejectionOf(
      (async () => {
        for await (const tx of node().v2.transactions(STUB_ACCOUNTS.busy, { pageSize: 50, signal: controller.signal })) {
          seen.push(tx);
          if (seen.length === 60) controller.abort(reason);
        }
      })(),
    );
    expect(err).toBe(reason);
    expect(seen).toHaveLength(60);
    expect(ctx.stub.requests).toHaveLength(2);
  });

  it('while a page is on the wire rejects at once with the reason', async () => {
    // A custom fetch slows down only the second page, so the abort lands while it is in flight.
    const client = createNodeClient({
      baseUrl: ctx.stub.url,
      retry: false,
      fetch: (request) => {
        if (new URL(request.url).searchParams.get('start') === '100') {
          request.headers.set('x-stub-fault', 'slow');
          request.headers.set('x-stub-delay-ms', '5000');
        }
        return fetch(request);
      },
    });
    const controller = new AbortController();
    const reason = new Error('user left');
    const it = client.v2.transactions(STUB_ACCOUNTS.busy, { signal: controller.signal });
    let n = 0;
    const started = Date.now();
    const err = await rejectionOf(
      (async () => {
        for await (const _tx of it) {
          if (++n === 100) setTimeout(() => controller.abort(reason), 50);
        }
      })(),
    );
    expect(err).toBe(reason);
    expect(n).toBe(100);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(pages()).toEqual([['100', '0'], ['100', '100']]);
  });

  it('that was aborted before it starts sends nothing', async () => {
    const controller = new AbortController();
    controller.abort(new Error('never mind'));
    await expect(collect(node().v1.modules(STUB_ACCOUNTS.publisher, { signal: controller.signal }))).rejects.toThrow('never mind');
    expect(ctx.stub.requests).toEqual([]);
  });
});
