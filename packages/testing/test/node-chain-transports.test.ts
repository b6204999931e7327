/**
 * The reads of the whole chain (blocks, transactions by hash, events, views, tables, the node's facts)
 * answered alike by the three transports: the loopback server, the in-memory fetch and the MSW handlers
 * (`setupServer` intercepting the global fetch), with the same seed and a fixed clock: the same status,
 * headers and body, in both shapes, POST bodies included; faults and the request log alike.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeStubFetch, startNodeStub, STUB_ACCOUNTS, type NodeStubHandle } from '../src/index.ts';
import { nodeHandlers } from '../src/msw.ts';
import { blockHash, chainFor, txHash } from '../src/node/chain.ts';
import { registryNamesHandle } from '../src/node/resources.ts';

const SEED = 7;
const NOW = Date.UTC(2024, 10, 20);
const chain = chainFor(SEED);
const height = chain.blocks[3]!.height;
const JSON_POST = { method: 'POST', headers: { 'content-type': 'application/json' } };
const view = (fn: string, typeArguments: string[], args: unknown[]): RequestInit => ({
  ...JSON_POST,
  body: JSON.stringify({ function: fn, type_arguments: typeArguments, arguments: args }),
});
const tableItem = (key: string): RequestInit => ({ ...JSON_POST, body: JSON.stringify({ key_type: 'address', value_type: '0x1::string::String', key }) });

type Case = { name: string; path: string; init?: RequestInit };
const CASES: Case[] = [
  { name: 'the latest block', path: '/rpc/v3/block' },
  { name: 'a block by height, with its transactions', path: `/rpc/v3/block/height/${height}?with_finalized_transactions=true` },
  { name: 'a block between transaction blocks, with its block-metadata transaction', path: `/rpc/v3/block/height/${height - 1}?with_finalized_transactions=true&type=meta` },
  { name: 'a block above the latest (404)', path: '/rpc/v3/block/height/99999999999' },
  { name: 'a block by hash', path: `/rpc/v3/block/${blockHash(SEED, height)}` },
  { name: 'a block’s transaction hashes', path: `/rpc/v3/block/${blockHash(SEED, height)}/transactions` },
  { name: 'a transaction by hash', path: `/rpc/v3/transactions/${txHash(SEED, 10)}` },
  { name: 'an unknown transaction (404)', path: `/rpc/v3/transactions/0x${'ab'.repeat(32)}` },
  { name: 'events of a type', path: '/rpc/v3/events/0x1::coin::DepositEvent?limit=5' },
  { name: 'events: a malformed cursor (400)', path: '/rpc/v3/events/0x1::coin::DepositEvent?start=xyz' },
  { name: 'the gas price', path: '/rpc/v3/transactions/estimate_gas_price' },
  { name: 'the chain id', path: '/rpc/v1/transactions/chain_id' },
  { name: 'the transaction parameters', path: '/rpc/v1/transactions/parameters' },
  { name: 'the version', path: '/rpc/v3/version' },
  { name: 'a balance view', path: '/rpc/v3/view', init: view('0x1::coin::balance', ['0x1::supra_coin::SupraCoin'], [STUB_ACCOUNTS.alice]) },
  { name: 'the clock view', path: '/rpc/v3/view', init: view('0x1::timestamp::now_microseconds', [], []) },
  { name: 'a view that fails (400)', path: '/rpc/v3/view', init: view('0x1::coin::balance', [], []) },
  { name: 'a view body that is no JSON (400)', path: '/rpc/v3/view', init: { ...JSON_POST, body: '{' } },
  { name: 'a view body sent as text (415)', path: '/rpc/v3/view', init: { method: 'POST', body: '{}' } },
  { name: 'a view body over 64 KiB (413)', path: '/rpc/v3/view', init: { ...JSON_POST, body: JSON.stringify({ pad: 'x'.repeat(70_000) }) } },
  { name: 'a GET of the view (405)', path: '/rpc/v3/view' },
  { name: 'a table item', path: `/rpc/v2/tables/${registryNamesHandle(SEED)}/item`, init: tableItem(STUB_ACCOUNTS.bob) },
  { name: 'a table item not there (404)', path: `/rpc/v2/tables/${registryNamesHandle(SEED)}/item`, init: tableItem('0x42') },
  { name: 'a CORS preflight of a view', path: '/rpc/v3/view', init: { method: 'OPTIONS', headers: { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } } },
  { name: 'a fault on a view', path: '/rpc/v3/view', init: { ...view('0x1::chain_id::get', [], []), headers: { 'content-type': 'application/json', 'x-stub-fault': '503' } } },
];

/** Headers a transport may add on its own (framing, time), left out of the comparison. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);
const headersOf = (r: Response): Record<string, string> => Object.fromEntries([...r.headers].filter(([k]) => !TRANSPORT_HEADERS.has(k)));
/** A case's request with the shapes asked for; the init is copied, so that each transport sends its own body. */
const initOf = (c: Case, shapes: string): RequestInit => ({ ...c.init, headers: { ...(c.init?.headers as Record<string, string> | undefined), 'x-stub-shapes': shapes } });

const msw = nodeHandlers({ seed: SEED, now: () => NOW, baseUrl: 'https://node.msw.test' });
const server = setupServer(...msw);
let loopback: NodeStubHandle;
beforeAll(async () => {
  loopback = await startNodeStub({ seed: SEED, now: () => NOW });
  // Requests to the loopback stub go through: only the handlers' origin is intercepted.
  server.listen({ onUnhandledRequest: 'bypass' });
});
afterAll(async () => {
  server.close();
  await loopback.close();
});

describe.each(['documented', 'live'])('the same answers on the three transports (%s shapes)', (shapes) => {
  it.each(CASES)('$name', async (c) => {
    const memory = createNodeStubFetch({ seed: SEED, now: () => NOW });
    loopback.reset();
    msw.reset();
    const overHttp = await fetch(`${loopback.url}${c.path}`, initOf(c, shapes));
    const inMemory = await memory(`${memory.url}${c.path}`, initOf(c, shapes));
    const intercepted = await fetch(`${msw.url}${c.path}`, initOf(c, shapes));
    const expected = [overHttp.status, headersOf(overHttp), await overHttp.text()];
    expect(overHttp.status).not.toBe(501);
    expect([inMemory.status, headersOf(inMemory), await inMemory.text()]).toEqual(expected);
    expect([intercepted.status, headersOf(intercepted), await intercepted.text()]).toEqual(expected);
    // The same request log: method, operation and body (a body over the bound is not kept).
    const logged = (log: typeof memory.requests) => log.map((r) => [r.method, r.operationId, r.body]);
    expect(logged(memory.requests)).toEqual(logged(loopback.requests));
    expect(logged(msw.requests)).toEqual(logged(loopback.requests));
  });
});
