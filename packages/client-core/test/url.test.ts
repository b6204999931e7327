/**
 * The URL and headers of a request, built by the transport itself since it stopped sending through
 * openapi-fetch: held to what openapi-fetch's own client (its documented `createClient`, a dev
 * dependency here only) sends for the same parameters and `headers`, so the wire format is unchanged.
 */
import { describe, expect, it } from 'vitest';
import createClient from 'openapi-fetch';
import { createTransport, type OperationSpec } from '@x/client-core';
import { requestUrl } from '../src/url.ts';

const BASE = 'http://127.0.0.1:9/api';
const TEMPLATE = '/accounts/{address}/resources/{resource_type}';
const OP: OperationSpec = {
  method: 'GET',
  path: TEMPLATE,
  params: [
    { name: 'address', in: 'path', required: true, schema: { type: 'string' } },
    { name: 'resource_type', in: 'path', required: true, schema: { type: 'string' } },
    { name: 'count', in: 'query', required: false, schema: { type: 'integer' } },
    { name: 'start', in: 'query', required: false, schema: { type: 'string' } },
    { name: 'with_counter', in: 'query', required: false, schema: { type: 'string' } },
  ],
};

/** The Request openapi-fetch's client sends for these parameters and headers. */
async function viaOpenapiFetch(path: Record<string, unknown>, query: Record<string, unknown> | undefined, headers?: Record<string, unknown>): Promise<Request> {
  let sent: Request | undefined;
  const client = createClient<Record<string, never>>({ baseUrl: BASE, fetch: async (request) => ((sent = request), Response.json({})) });
  await (client.GET as (path: string, init: unknown) => Promise<unknown>)(TEMPLATE, { params: { path, ...(query && { query }) }, ...(headers && { headers }) });
  return sent!;
}

/** The Request the transport's custom `fetch` is called with for the same. */
async function viaTransport(args: Record<string, unknown>, headers?: Record<string, unknown>): Promise<Request> {
  let sent: Request | undefined;
  const transport = createTransport({
    baseUrl: BASE,
    retry: false,
    fetch: async (request) => ((sent = request), Response.json({})),
    ...(headers && { headers: headers as Record<string, string> }),
  });
  await transport.call('op', OP, args);
  return sent!;
}

/** `urlOnly`: a value the transport's checks refuse (a boolean), compared through `requestUrl` alone. */
const CASES: { name: string; path: Record<string, unknown>; query?: Record<string, unknown>; urlOnly?: true }[] = [
  { name: 'no query', path: { address: '0x1', resource_type: '0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>' } },
  { name: 'a number and a string, in order', path: { address: '0xabc', resource_type: 'x' }, query: { count: 10, start: '12:34' } },
  { name: 'undefined left out', path: { address: '0x1', resource_type: 'x' }, query: { count: undefined, start: 'a b&c=d/é?#' } },
  { name: 'only undefined: no ?', path: { address: '0x1', resource_type: 'x' }, query: { count: undefined } },
  { name: 'an empty string and a boolean', path: { address: '', resource_type: "!'()*~._-" }, query: { start: '', with_counter: true }, urlOnly: true },
  { name: 'reserved characters and emoji in the path', path: { address: '../a/b%2f', resource_type: '{x}$&😀' }, query: { count: 0 } },
];

describe('requestUrl: the wire format of openapi-fetch', () => {
  it.each(CASES)('$name', async ({ path, query, urlOnly }) => {
    const expected = (await viaOpenapiFetch(path, query)).url;
    expect(requestUrl(BASE, TEMPLATE, path, query)).toBe(expected);
    if (!urlOnly) expect((await viaTransport({ ...path, ...query })).url).toBe(expected);
  });

  it('leaves a template parameter without a value as it is, and the template as it is without path parameters', () => {
    expect(requestUrl(BASE, TEMPLATE, { address: '0x1' }, undefined)).toBe(`${BASE}/accounts/0x1/resources/{resource_type}`);
    expect(requestUrl(BASE, '/latest', undefined, { trading_pair: 'btc_usdt' })).toBe(`${BASE}/latest?trading_pair=btc_usdt`);
  });
});

describe('the headers option: merged as openapi-fetch merged it', () => {
  it('null and undefined left out, numbers and booleans as text, a list as its items, names lowercased', async () => {
    const headers = { 'X-Number': 5, 'x-flag': false, 'x-list': ['a', 'b'], 'x-none': undefined, 'x-null': null, 'Accept': 'application/json' };
    const path = { address: '0x1', resource_type: 'x' };
    const expected = [...(await viaOpenapiFetch(path, undefined, headers)).headers];
    expect([...(await viaTransport(path, headers)).headers]).toEqual(expected);
    expect(expected).toEqual([['accept', 'application/json'], ['x-flag', 'false'], ['x-list', 'a, b'], ['x-number', '5']]);
  });
});
