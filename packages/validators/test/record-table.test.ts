/**
 * `x-validate record` reads the operations it records from the generated tables: an operation added to
 * the spec (here, to the generated operation tables, as `pnpm gen` would, which `routes` and `paging`
 * are read from) is recorded with no edit of the CLI when record can fill its parameters (and, for a
 * POST, knows its body), and skipped, named on stderr, when it cannot.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { record } from '../src/cli/record.js';
import type * as NodeTable from '../../common/src/generated/node-rpc.ts';
import type * as PriceTable from '../../common/src/generated/price-history.ts';

/** An entry of an operation table, as `pnpm gen` writes one (the parameters record reads are in its path). */
const { entry } = vi.hoisted(() => ({ entry: (method: string, path: string, more: object = {}) => ({ method, path, params: [], ...more }) }));

vi.mock('../../common/src/generated/node-rpc.ts', async (importOriginal) => {
  const generated = await importOriginal<typeof NodeTable>();
  return {
    ...generated,
    nodeRpcOperations: {
      ...generated.nodeRpcOperations,
      getBalanceV2: entry('GET', '/rpc/v2/accounts/{address}/balance'),
      listEventsV2: entry('GET', '/rpc/v2/accounts/{address}/events', {
        paging: {
          items: ['events'],
          next: { from: 'response', pointer: ['cursor'], encoding: 'string' },
          ends: ['empty-page', 'null-cursor', 'repeated-cursor'],
          predictable: false,
          newestFirstWithoutStart: false,
        },
      }),
      getEventV2: entry('GET', '/rpc/v2/accounts/{address}/events/{event_name}'),
      getEpochV2: entry('GET', '/rpc/v2/epochs/{era}'),
      getBlockV4: entry('GET', '/rpc/v4/blocks/{height}'),
      submitTransactionV2: entry('POST', '/rpc/v2/transactions'),
    },
  };
});

vi.mock('../../common/src/generated/price-history.ts', async (importOriginal) => {
  const generated = await importOriginal<typeof PriceTable>();
  return { ...generated, priceHistoryOperations: { ...generated.priceHistoryOperations, getPairs: entry('GET', '/pairs') } };
});

describe('x-validate record reads its operations from the tables', () => {
  it('records a new operation and a new listing (and the item it names), and skips what it cannot fill', async () => {
    const bodies: Record<string, unknown> = {
      '/rpc/v2/accounts/0x1/events?count=2': { events: [{ name: 'e 1' }, { name: 'e 2' }], cursor: 'c2' },
      '/rpc/v2/accounts/0x1/events?count=2&start=c2': { events: [], cursor: null },
    };
    const urls: string[] = [];
    const posts: { url: string; contentType: string | null; body: unknown }[] = [];
    const fake = (async (input: string | URL | Request, init?: RequestInit) => {
      const u = new URL(String(input));
      urls.push(`${u.origin} ${u.pathname}${u.search}`);
      if (init?.method === 'POST') posts.push({ url: u.pathname, contentType: new Headers(init.headers).get('content-type'), body: JSON.parse(String(init.body)) });
      // The latest block, whose height fills any `{height}` (here the new v4 block read's)
      const body = u.pathname === '/rpc/v3/block' ? { header: { height: 41, hash: `0x${'ab'.repeat(32)}` } } : (bodies[u.pathname + u.search] ?? {});
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const progress: string[] = [];
    const outDir = mkdtempSync(join(tmpdir(), 'x-validate-record-table-'));
    try {
      const { file } = await record({
        baseUrl: 'http://node',
        address: '0x1',
        outDir,
        count: 2,
        price: { baseUrl: 'http://price', pair: 'btc_usdt', apiKey: 'k' },
        progress: (line) => progress.push(line),
        fetch: fake,
      });
      expect(urls).toContain('http://node /rpc/v2/accounts/0x1/balance');
      expect(urls.filter((u) => u.includes('/events'))).toEqual([
        'http://node /rpc/v2/accounts/0x1/events?count=2',
        'http://node /rpc/v2/accounts/0x1/events?count=2&start=c2',
        'http://node /rpc/v2/accounts/0x1/events/e%201',
      ]);
      // A `{height}` is the latest block's, whatever operation asks for it.
      expect(urls).toContain('http://node /rpc/v4/blocks/41');
      expect(urls.some((u) => u.includes('/epochs') || u.endsWith('/rpc/v2/transactions') || u.includes('/pairs'))).toBe(false);
      // The one POST record knows a body for: the view of the node's clock, sent as JSON.
      expect(posts).toEqual([
        { url: '/rpc/v3/view', contentType: 'application/json', body: { function: '0x1::timestamp::now_microseconds', type_arguments: [], arguments: [] } },
      ]);
      // (This fake's other listings are empty, so the operations that take a name from them are skipped too.)
      const skipped = progress.filter((l) => l.startsWith('skipped'));
      expect(skipped).toContain(
        'skipped getEpochV2 (/rpc/v2/epochs/{era}): no value for {era} (record fills an address, a name from the listing above it, or {hash}, {height}, {block_hash}, {event_type}, {table_handle}, {transaction_hash}, {event_hash}, {epoch})',
      );
      expect(skipped).toContain('skipped submitTransactionV2 (/rpc/v2/transactions): record knows no request body for it (it sends one for viewV3, getEventProofsV4, getTableItemV2 only)');
      expect(skipped).toContain('skipped getPairs (/pairs): record knows no query for it (the route table carries path parameters only)');
      expect(skipped.filter((l) => /getBalanceV2|listEventsV2|getEventV2|getBlockV4/.test(l))).toEqual([]);
      const har = JSON.parse(readFileSync(file, 'utf8')) as { log: { entries: { request: { method: string; url: string; postData?: unknown } }[] } };
      expect(har.log.entries.map((e) => e.request.url)).toContain('http://node/rpc/v2/accounts/0x1/balance');
      // The POST is recorded with its method and body (HAR postData).
      const view = har.log.entries.find((e) => e.request.url === 'http://node/rpc/v3/view')!;
      expect(view.request).toMatchObject({
        method: 'POST',
        postData: { mimeType: 'application/json', text: '{"function":"0x1::timestamp::now_microseconds","type_arguments":[],"arguments":[]}' },
      });
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
