/**
 * What a client sends cannot make the stubs work super-linearly or fail with a 500: 100,000 adversarial
 * characters in each place a request reaches the stub (path, query, fault headers) are answered in time
 * linear in their length, measured as a ratio to 1,000 characters of the same kind in the same run,
 * never as a wall-clock limit.
 *
 * The in-memory fetch carries them: it runs the same engine and routers as the loopback server, whose
 * `node:http` refuses a request head over 16 KiB (431) before the stub sees it. Where the loopback
 * server still shows a fault, it is tested over loopback too.
 */
import { describe, expect, it } from 'vitest';
import { createNodeStubFetch, createPriceStubFetch, DEFAULT_PRICE_NOW, startNodeStub, STUB_ACCOUNTS, type FetchFunction } from '../src/index.ts';

const A = STUB_ACCOUNTS.alice;
const node = createNodeStubFetch();
const price = createPriceStubFetch({ now: () => DEFAULT_PRICE_NOW });

type Request = { url: string; headers?: Record<string, string>; body?: string };
/** Best of three, so that one run slowed by another process does not count. */
async function timed(fetcher: FetchFunction, r: Request): Promise<{ ms: number; status: number; body: string }> {
  let ms = Infinity;
  let status = 0;
  let body = '';
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const init: RequestInit = r.body === undefined ? {} : { method: 'POST', body: r.body };
    const res = await fetcher(r.url, { ...init, headers: { ...(r.body === undefined ? {} : { 'content-type': 'application/json' }), ...r.headers }, redirect: 'manual' });
    body = await res.text();
    ms = Math.min(ms, performance.now() - t);
    status = res.status;
  }
  return { ms, status, body };
}

const SHORT = 1_000;
const LONG = 100_000;
const rep = (s: string, n: number): string => s.repeat(Math.max(1, Math.floor(n / s.length)));

/** A view call whose parts the case makes. */
const viewBody = (parts: { fn?: string; typeArguments?: string; args?: string }): string =>
  `{"function":"${parts.fn ?? '0x1::account::exists_at'}","type_arguments":${parts.typeArguments ?? '[]'},"arguments":${parts.args ?? '["0x1"]'}}`;
/** 60 % of n: a POST body stays under the 64 KiB the stub reads (over it, a 413 tested on its own). */
const under = (n: number): number => Math.floor(n * 0.6);

const CASES: Array<{ name: string; stub?: 'price'; make: (n: number) => Request; status: number; error?: string }> = [
  // `{url}` used to be expanded once per occurrence: |Location| x |url|, quadratic in what the client sends.
  {
    name: 'x-stub-redirect-to of many {url} with a long query',
    make: (n) => ({ url: `${node.url}/rpc/v2/accounts/${A}?${'a'.repeat(n / 2)}`, headers: { 'x-stub-fault': '307', 'x-stub-redirect-to': rep('{url}', n / 2) } }),
    status: 400,
    error: 'bad_fault_request',
  },
  // The type parser recursed once per level: past some thousands of levels, a stack overflow and a 500.
  { name: 'a resource type nested n/10 deep', make: (n) => ({ url: `${node.url}/rpc/v2/accounts/${A}/resources/${rep('0x1::m::S<', n)}` }), status: 400, error: 'invalid_resource_type' },
  {
    name: 'a resource type nested and closed',
    make: (n) => ({ url: `${node.url}/rpc/v2/accounts/${A}/resources/${rep('0x1::m::S<', n / 2)}${rep('>', n / 20)}` }),
    status: 400,
    error: 'invalid_resource_type',
  },
  { name: 'vector<vector<...', make: (n) => ({ url: `${node.url}/rpc/v1/accounts/${A}/resources/0x1::m::S<${rep('vector<', n)}u8` }), status: 400, error: 'invalid_resource_type' },
  // The document's resource_type pattern has no comma: one type argument per level.
  { name: 'a wide resource type', make: (n) => ({ url: `${node.url}/rpc/v2/accounts/${A}/resources/0x1::m::S<${rep('u8,', n)}u8>` }), status: 400, error: 'invalid_resource_type' },
  { name: 'a long identifier in a resource type', make: (n) => ({ url: `${node.url}/rpc/v2/accounts/${A}/resources/0x1::${'a'.repeat(n)}` }), status: 400 },
  { name: 'a long module name', make: (n) => ({ url: `${node.url}/rpc/v2/accounts/${A}/modules/${'a'.repeat(n)}` }), status: 404 },
  { name: 'a long address', make: (n) => ({ url: `${node.url}/rpc/v2/accounts/${'a'.repeat(n)}` }), status: 400, error: 'invalid_address' },
  { name: 'a long count', make: (n) => ({ url: `${node.url}/rpc/v2/accounts/${A}/transactions?count=${'9'.repeat(n)}` }), status: 400, error: 'count_out_of_range' },
  { name: 'a long hex start', make: (n) => ({ url: `${node.url}/rpc/v2/accounts/${A}/modules?start=${rep('ab', n)}` }), status: 200 },
  { name: 'a long odd hex start', make: (n) => ({ url: `${node.url}/rpc/v2/accounts/${A}/modules?start=${rep('ab', n)}a` }), status: 400, error: 'invalid_start' },
  { name: 'many slashes', make: (n) => ({ url: `${node.url}/${'/'.repeat(n)}` }), status: 404 },
  { name: 'many percent-escapes', make: (n) => ({ url: `${node.url}/rpc/v2/accounts/${rep('%41', n)}` }), status: 400, error: 'invalid_address' },
  { name: 'a repeated query parameter', make: (n) => ({ url: `${node.url}/rpc/v2/accounts/${A}/transactions?${rep('count=1&', n)}` }), status: 400, error: 'invalid_count' },
  { name: 'a long x-stub-fault', make: (n) => ({ url: `${node.url}/rpc/v2/accounts/${A}`, headers: { 'x-stub-fault': 'x'.repeat(n) } }), status: 400, error: 'bad_fault_request' },
  { name: 'a long x-stub-fault-key', make: (n) => ({ url: `${node.url}/rpc/v2/accounts/${A}`, headers: { 'x-stub-fault': '503', 'x-stub-fault-times': '9', 'x-stub-fault-key': 'k'.repeat(n) } }), status: 503 },
  { name: 'a long x-stub-shapes', make: (n) => ({ url: `${node.url}/rpc/v2/accounts/${A}`, headers: { 'x-stub-shapes': 'l'.repeat(n) } }), status: 400 },
  // The node's POST reads: JSON.parse does not recurse, and what reads the value follows the Move type, not the JSON.
  { name: 'a view argument nested deep', make: (n) => ({ url: `${node.url}/rpc/v3/view`, body: viewBody({ args: `[${rep('[', under(n))}` }) }), status: 400, error: 'invalid_json' },
  { name: 'a view argument nested deep and closed', make: (n) => ({ url: `${node.url}/rpc/v3/view`, body: viewBody({ args: `[${rep('[', under(n) / 2)}${rep(']', under(n) / 2)}]` }) }), status: 400, error: 'view_failed' },
  { name: 'a view type argument nested deep', make: (n) => ({ url: `${node.url}/rpc/v3/view`, body: viewBody({ typeArguments: `["${rep('vector<', under(n))}u8"]` }) }), status: 400, error: 'invalid_view_request' },
  { name: 'many view type arguments', make: (n) => ({ url: `${node.url}/rpc/v3/view`, body: viewBody({ typeArguments: `[${rep('"u8",', under(n))}"u8"]` }) }), status: 400, error: 'view_failed' },
  { name: 'a long view function name', make: (n) => ({ url: `${node.url}/rpc/v3/view`, body: viewBody({ fn: `0x1::coin::${'a'.repeat(under(n))}` }) }), status: 400, error: 'view_failed' },
  {
    name: 'a table key of many items',
    make: (n) => ({ url: `${node.url}/rpc/v2/tables/0x1/item`, body: `{"key_type":"vector<u64>","value_type":"u8","key":[${rep('"1",', under(n))}"1"]}` }),
    status: 404,
  },
  { name: 'a table key nested deep', make: (n) => ({ url: `${node.url}/rpc/v2/tables/0x1/item`, body: `{"key_type":"address","value_type":"u8","key":${rep('[', under(n) / 2)}${rep(']', under(n) / 2)}}` }), status: 400, error: 'invalid_table_request' },
  { name: 'a POST body over 64 KiB', make: (n) => ({ url: `${node.url}/rpc/v3/view`, body: viewBody({ args: `["${'a'.repeat(n * 2)}"]` }) }), status: 413, error: 'payload_too_large' },
  { name: 'a long event type', make: (n) => ({ url: `${node.url}/rpc/v3/events/0x1::coin::${'A'.repeat(n)}<${rep('u8,', n)}` }), status: 400, error: 'invalid_event_type' },
  { name: 'an event type nested deep', make: (n) => ({ url: `${node.url}/rpc/v3/events/0x1::m::S<${rep('0x1::m::S<', n)}` }), status: 400, error: 'invalid_event_type' },
  { name: 'a long events cursor', make: (n) => ({ url: `${node.url}/rpc/v3/events/0x1::coin::DepositEvent?start=${'a'.repeat(n)}` }), status: 400, error: 'invalid_start' },
  { name: 'a long block height', make: (n) => ({ url: `${node.url}/rpc/v3/block/height/${'9'.repeat(n)}` }), status: 400, error: 'invalid_height' },
  { name: 'a long block hash', make: (n) => ({ url: `${node.url}/rpc/v3/block/${'a'.repeat(n)}` }), status: 400, error: 'invalid_block_hash' },
  { name: 'a long transaction hash', make: (n) => ({ url: `${node.url}/rpc/v3/transactions/${'a'.repeat(n)}` }), status: 400, error: 'invalid_hash' },
  { name: 'a long table handle', make: (n) => ({ url: `${node.url}/rpc/v2/tables/${'a'.repeat(n)}/item`, body: '{}' }), status: 400, error: 'invalid_table_handle' },
  { name: 'a long trading pair', stub: 'price', make: (n) => ({ url: `${price.url}/latest?trading_pair=${rep('a_', n)}` }), status: 400, error: 'invalid_parameter' },
  { name: 'a long startDate', stub: 'price', make: (n) => ({ url: `${price.url}/history?trading_pair=btc_usdt&startDate=${'1'.repeat(n)}&endDate=1&interval=60`, headers: { 'x-api-key': price.apiKey } }), status: 400, error: 'invalid_parameter' },
];

describe('100,000 adversarial characters: a 4xx, in time linear in their length', () => {
  it.each(CASES)('$name', async ({ stub, make, status, error }) => {
    const fetcher = stub === 'price' ? price : node;
    const short = await timed(fetcher, make(SHORT));
    const long = await timed(fetcher, make(LONG));
    expect(long.status).toBe(status);
    if (error !== undefined) expect(JSON.parse(long.body)).toMatchObject({ error });
    // 100 times the input: linear work takes up to ~100 times as long, quadratic 10,000 times. 1,000
    // leaves room for a loaded machine and still fails quadratic work tenfold.
    expect(long.ms, `${LONG} characters took ${long.ms.toFixed(1)} ms vs ${short.ms.toFixed(2)} ms for ${SHORT}`).toBeLessThan(Math.max(short.ms, 0.2) * 1_000);
  });

  it('a start of 10 MB of hex is a 400 (a regular expression with a repeated group overflowed V8 on it: a 500)', async () => {
    const res = await node(`${node.url}/rpc/v2/accounts/${A}/modules?start=${'ab'.repeat(5_000_000)}a`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_start' });
  });
});

describe('over loopback', () => {
  it('a redirect fault whose Location would outgrow what a client reads is a 400, not megabytes of header', async () => {
    const stub = await startNodeStub();
    try {
      // 1,000 {url} of a 7 KB path and query: a 7 MB Location, which undici refuses (HeadersOverflowError).
      const res = await fetch(`${stub.url}/rpc/v2/accounts/${A}?${'a'.repeat(7_000)}`, {
        redirect: 'manual',
        headers: { 'x-stub-fault': '307', 'x-stub-redirect-to': '{url}'.repeat(1_000) },
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'bad_fault_request', message: expect.stringContaining('16384') });
      // One {url} of the same request is still expanded.
      const one = await fetch(`${stub.url}/rpc/v2/accounts/${A}?${'a'.repeat(7_000)}`, {
        redirect: 'manual',
        headers: { 'x-stub-fault': '307', 'x-stub-redirect-to': '{url}&moved=1' },
      });
      expect(one.status).toBe(307);
      expect(one.headers.get('location')).toBe(`/rpc/v2/accounts/${A}?${'a'.repeat(7_000)}&moved=1`);
    } finally {
      await stub.close();
    }
  });

  it('a resource type nested as deep as a request head allows is a 400', async () => {
    const stub = await startNodeStub();
    try {
      // 900 levels: with `<` and `>` percent-encoded by fetch, near the 16 KiB a request head may have.
      const res = await fetch(`${stub.url}/rpc/v2/accounts/${A}/resources/${'0x1::m::S<'.repeat(900)}u8${'>'.repeat(900)}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_resource_type' });
    } finally {
      await stub.close();
    }
  });
});
