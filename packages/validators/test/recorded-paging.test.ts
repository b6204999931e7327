/**
 * The committed recordings walk their listings as the paging table says: every `start` a recorded
 * request sends (under the rule's start name: `start`, or v3 automated transactions' `cursor`) is a next
 * start that an earlier response of the same recording gave (for the same operation and address), read
 * by `readPage` from the generated `paging` rules; a v3 header cursor from the recorded `x-supra-cursor`
 * response header. And `x-validate record` walks them so.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesToHex, readPage, type PageStart } from '@x/client-core/internal';
import { record } from '../src/cli/record.ts';
import { paging, type PagedOperationId, type PagingRule } from '@x/common';
import { routes } from '@x/common';

const root = join(import.meta.dirname, '..', '..', '..');
const dirs = [join(root, 'specs', 'recorded'), join(root, 'specs', 'recorded-live')];

type HarEntry = {
  request: { method: string; url: string };
  response: { status: number; headers?: { name: string; value: string }[]; content: { text?: string; encoding?: string } };
};
type HarFile = { log: { entries: HarEntry[] } };

const isPaged = (id: string): id is PagedOperationId => Object.hasOwn(paging, id);

/** The listing routes as patterns on the end of a path, capturing the path parameters (as match.ts places them). */
const listings = routes
  .filter((r) => isPaged(r.operationId))
  .map((r) => {
    const names: string[] = [];
    const source = r.path
      .split('/')
      .filter(Boolean)
      .map((seg) => {
        const param = /^\{(.+)\}$/.exec(seg);
        if (param) {
          names.push(param[1]!);
          return '([^/]+)';
        }
        return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('/');
    return { operationId: r.operationId as PagedOperationId, method: r.method, names, pattern: new RegExp(`(?:^|/)${source}/?$`) };
  });

/** The listing a recorded request belongs to, with its path parameters, or undefined for any other operation. */
function listingOf(method: string, url: string): { operationId: PagedOperationId; params: Record<string, string> } | undefined {
  const path = new URL(url, 'http://recorded.invalid').pathname;
  for (const l of listings) {
    const m = l.method === method.toUpperCase() ? l.pattern.exec(path) : null;
    if (m) return { operationId: l.operationId, params: Object.fromEntries(l.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)])) };
  }
  return undefined;
}

const bodyOf = (entry: HarEntry): unknown => {
  const { text, encoding } = entry.response.content;
  if (text === undefined) return undefined;
  try {
    return JSON.parse(encoding === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text);
  } catch {
    return undefined;
  }
};

/**
 * A `start` a walk may send without a page before it: 0, the first item of an ascending u64 listing
 * (not a header cursor: that one comes only from a header).
 */
const isOrigin = (operationId: PagedOperationId, start: string): boolean => {
  const { next } = paging[operationId];
  return next.from !== 'header' && next.encoding === 'u64' && start === '0';
};

/** A page as the paging interpreter reads it: a header cursor's as `{ items, cursor }`, the header as recorded. */
const pageOf = (rule: PagingRule, entry: HarEntry): unknown => {
  if (rule.next.from !== 'header') return bodyOf(entry);
  const name = rule.next.name.toLowerCase();
  // The items at the rule's pointer (a bare array: the body; events: `/data`), as the clients' transport hands them over.
  const items = rule.items.reduce<unknown>((v, key) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined), bodyOf(entry));
  return { items, cursor: entry.response.headers?.find((h) => h.name.toLowerCase() === name)?.value };
};

type Check = { operationId: PagedOperationId; url: string; start: string; origin: boolean; given: boolean };

/** Every `start` of every listing request of one recording, and whether an earlier response gave it. */
function checkStarts(har: HarFile): Check[] {
  const given = new Map<string, Set<string>>();
  const checks: Check[] = [];
  for (const entry of har.log.entries) {
    const listing = listingOf(entry.request.method, entry.request.url);
    if (!listing) continue;
    const { operationId, params } = listing;
    const key = `${operationId} ${JSON.stringify(params)}`;
    const query = new URL(entry.request.url, 'http://recorded.invalid').searchParams;
    const rule: PagingRule = paging[operationId];
    for (const start of query.getAll(rule.start ?? 'start')) {
      checks.push({ operationId, url: entry.request.url, start, origin: isOrigin(operationId, start), given: given.get(key)?.has(start) ?? false });
    }
    const count = query.get(rule.size ?? 'count');
    let next: PageStart | undefined;
    try {
      next = readPage(operationId, rule, pageOf(rule, entry), count === null ? undefined : Number(count)).next;
    } catch {
      continue; // an unreadable page gives no next start
    }
    if (next !== undefined) given.set(key, (given.get(key) ?? new Set()).add(String(next)));
  }
  return checks;
}

const recordings = dirs.flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.har'))
    .sort()
    .map((f) => ({ file: `${dir.slice(root.length + 1)}/${f}`, har: JSON.parse(readFileSync(join(dir, f), 'utf8')) as HarFile })),
);

describe('recorded listings follow the paging table', () => {
  it('finds recordings in both folders', () => {
    for (const dir of dirs) expect(recordings.some((r) => r.file.startsWith(`${dir.slice(root.length + 1)}/`))).toBe(true);
  });

  it.each(recordings)('every start in $file is a next start an earlier response gave', ({ har }) => {
    const unfollowed = checkStarts(har)
      .filter((c) => !c.origin && !c.given)
      .map((c) => `${c.operationId} ${c.url}`);
    expect(unfollowed).toEqual([]);
  });

  it('checks a positive number of listing requests with start, of every cursor form', () => {
    const checks = recordings.flatMap(({ har }) => checkStarts(har));
    const followed = checks.filter((c) => !c.origin);
    expect(followed.length).toBeGreaterThan(0);
    const encodings = new Set(followed.map((c) => paging[c.operationId].next.encoding));
    expect([...encodings].sort()).toEqual(['string', 'u64', 'u8-bytes-or-hex']);
    // Each v1 module and resource listing with a next page is followed, in both shapes.
    for (const id of ['listModulesV1', 'listResourcesV1'] as const) {
      expect(followed.filter((c) => c.operationId === id && c.given).length).toBeGreaterThanOrEqual(4);
    }
  });

  it('follows v3 header cursors, each as an earlier recorded x-supra-cursor header gave it', () => {
    const header = recordings.flatMap(({ har }) => checkStarts(har)).filter((c) => paging[c.operationId].next.from === 'header');
    expect(header.every((c) => c.given)).toBe(true);
    // The listings whose recorded accounts have a second page (the stub's chain has no automated
    // transactions, and fungible-asset ones only at a store's address, which record does not visit).
    expect([...new Set(header.map((c) => c.operationId))]).toEqual(expect.arrayContaining(['listCoinTransactionsV3', 'listModulesV3', 'listResourcesV3']));
    // Each in both shapes.
    for (const dir of ['specs/recorded/', 'specs/recorded-live/']) {
      const inDir = recordings.filter((r) => r.file.startsWith(dir)).flatMap(({ har }) => checkStarts(har));
      expect(inDir.filter((c) => paging[c.operationId].next.from === 'header').length, dir).toBeGreaterThanOrEqual(3);
    }
  });

  it('flags a start no response gave: a live v1 hex cursor hex-encoded again', () => {
    const live = recordings.find((r) => r.file === 'specs/recorded-live/0x1.har')!;
    const har = structuredClone(live.har);
    const entry = har.log.entries.find((e) => listingOf('GET', e.request.url)?.operationId === 'listModulesV1' && e.request.url.includes('start='))!;
    const url = new URL(entry.request.url);
    const hex = url.searchParams.get('start')!;
    url.searchParams.set('start', bytesToHex(hex as unknown as number[]));
    entry.request.url = String(url);
    expect(checkStarts(har).filter((c) => !c.origin && !c.given).map((c) => c.operationId)).toEqual(['listModulesV1']);
  });

  it('flags a start of another address', () => {
    const documented = recordings.find((r) => r.file === 'specs/recorded/0x1.har')!;
    const har = structuredClone(documented.har);
    const entry = har.log.entries.find((e) => listingOf('GET', e.request.url)?.operationId === 'listTransactionsV2' && /start=[1-9]/.test(e.request.url))!;
    entry.request.url = entry.request.url.replace('/accounts/0x1/', '/accounts/0x2/');
    expect(checkStarts(har).filter((c) => !c.origin && !c.given).map((c) => c.operationId)).toEqual(['listTransactionsV2']);
  });
});

describe('x-validate record follows listings by the paging table', () => {
  it('sends a live v1 hex cursor back as given, v1 bytes as hex, and stops at unreadable or ending pages', async () => {
    const bodies: Record<string, unknown> = {
      '/rpc/v1/accounts/0x1/modules?count=2': { Modules: { modules: [['a', {}], ['b', {}]], cursor: '00ab' } },
      '/rpc/v1/accounts/0x1/resources?count=2': { Resources: { resource: [['0x1::a::A', {}]], cursor: [0, 171, 255] } },
      '/rpc/v1/accounts/0x1/transactions?count=2&start=0': { record: [{ header: { sequence_number: 0 } }, { header: { sequence_number: 1 } }] },
      '/rpc/v2/accounts/0x1/transactions?count=2&start=0': { record: [{ header: { sequence_number: 0 } }] },
      '/rpc/v2/accounts/0x1/coin_transactions?count=2&start=0': { record: [{}], cursor: 0 },
      '/rpc/v1/accounts/0x1/coin_transactions?count=2&start=0': 'not a page',
    };
    const urls: string[] = [];
    const fake = (async (input: string | URL | Request) => {
      const u = new URL(String(input));
      urls.push(u.pathname + u.search);
      return new Response(JSON.stringify(bodies[u.pathname + u.search] ?? {}), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const outDir = mkdtempSync(join(tmpdir(), 'x-validate-record-paging-'));
    try {
      await record({ baseUrl: 'http://node', address: '0x1', outDir, count: 2, progress: () => {}, fetch: fake });
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
    // In the route table's order, which this test does not depend on.
    const starts = urls.filter((u) => /[?&]start=(?!0(&|$))/.test(u)).sort();
    expect(starts).toEqual([
      '/rpc/v1/accounts/0x1/modules?count=2&start=00ab',
      '/rpc/v1/accounts/0x1/resources?count=2&start=00abff',
      '/rpc/v1/accounts/0x1/transactions?count=2&start=2',
    ]);
    expect(urls).toContain('/rpc/v1/accounts/0x1/modules/a');
  });

  it('follows a v3 header cursor: x-supra-cursor sent back as the start parameter, ascending as the page it follows; an empty or absent header ends', async () => {
    const tx = (n: number) => ({ header: { sequence_number: n }, txn_type: 'user' });
    const pages: Record<string, { body: unknown; cursor?: string }> = {
      // v3 transactions: a u64 start from 0, ascending, and the next one after the last item
      '/rpc/v3/accounts/0x1/transactions?count=2&start=0&ascending=true': { body: [tx(0), tx(1)] },
      // coin transactions: newest first, then ascending from the oldest, then on from that page's header
      '/rpc/v3/accounts/0x1/coin_transactions?count=2': { body: [tx(9), tx(8)], cursor: '90' },
      '/rpc/v3/accounts/0x1/coin_transactions?count=2&ascending=true': { body: [tx(0), tx(1)], cursor: '17' },
      // automated transactions: the cursor is sent as `cursor`
      '/rpc/v3/accounts/0x1/automated_transactions?count=2&ascending=true': { body: [tx(3)], cursor: 'b2:7' },
      // fungible-asset transactions: the last page (an empty header)
      '/rpc/v3/accounts/0x1/fa_transactions?count=2&ascending=true': { body: [tx(4)], cursor: '' },
      // modules: no order parameter, newest first is not a thing: the first page, then on by its header
      '/rpc/v3/accounts/0x1/modules?count=2': { body: [{ bytecode: '0x', abi: { name: 'acl' } }], cursor: 'm-2' },
      // resources: no header at all, the last page
      '/rpc/v3/accounts/0x1/resources?count=2': { body: [{ type: '0x1::a::A', data: {} }] },
    };
    const urls: string[] = [];
    const fake = (async (input: string | URL | Request) => {
      const u = new URL(String(input));
      urls.push(u.pathname + u.search);
      const page = pages[u.pathname + u.search];
      const headers: Record<string, string> = { 'content-type': 'application/json', 'x-supra-chain-id': '6' };
      if (page?.cursor !== undefined) headers['x-supra-cursor'] = page.cursor;
      return new Response(JSON.stringify(page?.body ?? {}), { status: 200, headers });
    }) as typeof fetch;
    const outDir = mkdtempSync(join(tmpdir(), 'x-validate-record-v3-'));
    let har: HarFile;
    try {
      const { file } = await record({ baseUrl: 'http://node', address: '0x1', outDir, count: 2, progress: () => {}, fetch: fake });
      har = JSON.parse(readFileSync(file, 'utf8')) as HarFile;
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
    expect(urls.filter((u) => u.startsWith('/rpc/v3/accounts/'))).toEqual([
      '/rpc/v3/accounts/0x1',
      '/rpc/v3/accounts/0x1/transactions?count=2',
      '/rpc/v3/accounts/0x1/transactions?count=2&start=0&ascending=true',
      '/rpc/v3/accounts/0x1/transactions?count=2&start=2&ascending=true',
      '/rpc/v3/accounts/0x1/coin_transactions?count=2',
      '/rpc/v3/accounts/0x1/coin_transactions?count=2&ascending=true',
      '/rpc/v3/accounts/0x1/coin_transactions?count=2&start=17&ascending=true',
      '/rpc/v3/accounts/0x1/fa_transactions?count=2',
      '/rpc/v3/accounts/0x1/fa_transactions?count=2&ascending=true',
      '/rpc/v3/accounts/0x1/automated_transactions?count=2',
      '/rpc/v3/accounts/0x1/automated_transactions?count=2&ascending=true',
      '/rpc/v3/accounts/0x1/automated_transactions?count=2&cursor=b2%3A7&ascending=true',
      '/rpc/v3/accounts/0x1/modules?count=2',
      '/rpc/v3/accounts/0x1/modules?count=2&start=m-2',
      '/rpc/v3/accounts/0x1/modules/acl',
      '/rpc/v3/accounts/0x1/resources?count=2',
      '/rpc/v3/accounts/0x1/resources/0x1%3A%3Aa%3A%3AA',
    ]);
    // The recording keeps the response headers, and every cursor it sends is one a recorded header gave.
    const coin = har.log.entries.find((e) => e.request.url.endsWith('/coin_transactions?count=2&ascending=true'))!;
    expect(coin.response.headers).toEqual(expect.arrayContaining([{ name: 'x-supra-cursor', value: '17' }, { name: 'x-supra-chain-id', value: '6' }]));
    const checks = checkStarts(har).filter((c) => paging[c.operationId].next.from === 'header');
    expect(checks.map((c) => [c.operationId, c.start, c.given])).toEqual([
      ['listCoinTransactionsV3', '17', true],
      ['listAutomatedTransactionsV3', 'b2:7', true],
      ['listModulesV3', 'm-2', true],
    ]);
  });

  describe('an events walk (listEventsV3: items at /data, page size `limit`, the x-supra-cursor header sent back as `start`)', () => {
    const hash = `0x${'7c'.repeat(32)}`;
    const type = '0x1::coin::CoinDeposit';
    const events = `/rpc/v3/events/${encodeURIComponent(type)}`;
    const event = (n: number) => ({
      event: { guid: { creation_number: '0', account_address: '0x0' }, sequence_number: String(n), type, data: { amount: String(n) } },
      block_height: 10 + n,
      transaction_hash: hash,
    });
    /** Records from a node whose account has one transaction that emitted events of `types`, and whose events pages are `pages`. */
    const walk = async (pages: Record<string, { data: unknown[]; cursor?: string }>, types = [type]): Promise<{ urls: string[]; har: HarFile }> => {
      const urls: string[] = [];
      const fake = (async (input: string | URL | Request) => {
        const u = new URL(String(input));
        urls.push(u.pathname + u.search);
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        let body: unknown = {};
        if (u.pathname === '/rpc/v3/accounts/0x1/transactions') {
          body = [{ hash, header: { sequence_number: 0 }, output: { Move: { events: types.map((t) => ({ type: t })) } }, txn_type: 'user' }];
        }
        const page = pages[u.pathname + u.search];
        if (page) {
          body = { data: page.data };
          if (page.cursor !== undefined) headers['x-supra-cursor'] = page.cursor;
        }
        return new Response(JSON.stringify(body), { status: 200, headers });
      }) as typeof fetch;
      const outDir = mkdtempSync(join(tmpdir(), 'x-validate-record-events-'));
      try {
        const { file } = await record({ baseUrl: 'http://node', address: '0x1', outDir, count: 2, progress: () => {}, fetch: fake });
        return { urls: urls.filter((u) => u.startsWith('/rpc/v3/events/')), har: JSON.parse(readFileSync(file, 'utf8')) as HarFile };
      } finally {
        rmSync(outDir, { recursive: true, force: true });
      }
    };

    it('takes the event type from the account transaction, asks `limit` items, and sends the header cursor back as `start`', async () => {
      const { urls, har } = await walk({
        [`${events}?limit=2`]: { data: [event(0), event(1)], cursor: 'c1' },
        [`${events}?limit=2&start=c1`]: { data: [event(2)], cursor: 'c2' },
      });
      expect(urls).toEqual([`${events}?limit=2`, `${events}?limit=2&start=c1`]);
      // The recording's own check agrees: the cursor sent is one a recorded header gave.
      expect(checkStarts(har).filter((c) => c.operationId === 'listEventsV3').map((c) => [c.start, c.given])).toEqual([['c1', true]]);
    });

    it('walks the type of the first event the account emitted, over its recorded pages', async () => {
      const { urls } = await walk({ [`${events}?limit=2`]: { data: [] } }, [type, '0x1::transaction_fee::FeeStatement']);
      expect(urls).toEqual([`${events}?limit=2`]);
    });

    it.each([
      ['an empty page (its header present, as nodes send it on the last page too)', { data: [], cursor: 'c0' }],
      ['an empty header', { data: [event(0)], cursor: '' }],
      ['no header', { data: [event(0)] }],
    ])('stops where the rule ends the walk: %s', async (_what, first) => {
      const { urls } = await walk({ [`${events}?limit=2`]: first });
      expect(urls).toEqual([`${events}?limit=2`]);
    });
  });
});
