/**
 * Requests of adversarial characters in each place a request reaches a stub (path, query, fault
 * headers, POST bodies), `n` of them, made for the in-memory fetch (which runs the same engine and
 * routers as the loopback server, whose `node:http` refuses a request head over 16 KiB before the stub
 * sees it). adversarial-input.test.ts checks the 4xx each is answered with, adversarial-input.perf.test.ts
 * that the time it takes is linear in `n`.
 */
import { createNodeStubFetch, createPriceStubFetch, DEFAULT_PRICE_NOW, STUB_ACCOUNTS, type FetchFunction } from '../src/index.ts';

export const A = STUB_ACCOUNTS.alice;
export const node = createNodeStubFetch();
const price = createPriceStubFetch({ now: () => DEFAULT_PRICE_NOW });

type Request = { url: string; headers?: Record<string, string>; body?: string };

/** Sends `r` to the stub of its case (a POST when it has a body), redirects not followed. */
export function send(stub: 'price' | undefined, r: Request): Promise<Response> {
  const fetcher: FetchFunction = stub === 'price' ? price : node;
  const init: RequestInit = r.body === undefined ? {} : { method: 'POST', body: r.body };
  return fetcher(r.url, { ...init, headers: { ...(r.body === undefined ? {} : { 'content-type': 'application/json' }), ...r.headers }, redirect: 'manual' });
}

export const SHORT = 1_000;
export const LONG = 100_000;
const rep = (s: string, n: number): string => s.repeat(Math.max(1, Math.floor(n / s.length)));

/** A view call whose parts the case makes. */
const viewBody = (parts: { fn?: string; typeArguments?: string; args?: string }): string =>
  `{"function":"${parts.fn ?? '0x1::account::exists_at'}","type_arguments":${parts.typeArguments ?? '[]'},"arguments":${parts.args ?? '["0x1"]'}}`;
/** 60 % of n: a POST body stays under the 64 KiB the stub reads (over it, a 413 tested on its own). */
const under = (n: number): number => Math.floor(n * 0.6);

export const CASES: Array<{ name: string; stub?: 'price'; make: (n: number) => Request; status: number; error?: string }> = [
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
