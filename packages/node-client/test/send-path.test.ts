/**
 * One send path: a client with a custom `fetch` (a Request per attempt) sends the same wire requests,
 * and fails with the same errors, as one without (`fetch(url, init)`, no Request).
 */
import { describe, expect, it } from 'vitest';
import { createNodeClient, HttpError, type NodeClient } from '@x/node-client';
import { STUB_ACCOUNTS } from '@x/testing';
import { rejectionOf, useNodeStub } from '@x-tools/test-helpers';

const ctx = useNodeStub();
const { alice, publisher } = STUB_ACCOUNTS;
const passThrough = (request: Request): Promise<Response> => fetch(request);

/** Every operation, with inputs that need percent-encoding (`<>:/?&=%+` and spaces) or are u64 beyond 2^53. */
const calls: [string, (n: NodeClient) => Promise<unknown>][] = [];
for (const v of ['v1', 'v2'] as const) {
  calls.push(
    [`${v}.getAccount`, (n) => n[v].getAccount(alice.toUpperCase().replace('0X', ''))],
    [`${v}.listTransactions`, (n) => n[v].listTransactions(alice, { count: 7, start: 18446744073709551615n })],
    [`${v}.listCoinTransactions`, (n) => n[v].listCoinTransactions(alice, { start: '9007199254740993' })],
    [`${v}.listModules`, (n) => (v === 'v1' ? n.v1.listModules(publisher, { count: 2, start: [0, 15, 255] }) : n.v2.listModules(publisher, { count: 2, start: 'a/b?c=d&e' }))],
    [`${v}.getModule`, (n) => n[v].getModule(publisher, 'vault')],
    [`${v}.listResources`, (n) => n[v].listResources(alice, { start: 'x y+z%' })],
    [`${v}.getResource`, (n) => n[v].getResource(publisher, `${publisher}::vault::Vault<vector<vector<0x1::coin::Coin<0x1::supra_coin::SupraCoin>>>>`)],
  );
}

describe('with and without a custom fetch', () => {
  it.each(calls)('%s: both send the same URL and headers', async (_name, call) => {
    const options = { baseUrl: `${ctx.stub.url}/`, retry: false as const, headers: { 'x-trace-id': 'a b', 'X-Mixed-Case': 'v' } };
    const direct = createNodeClient(options);
    const viaFetch = createNodeClient({ ...options, fetch: passThrough });
    await call(direct).catch(() => undefined); // some inputs are unknown to the stub: the request is what counts
    await call(viaFetch).catch(() => undefined);
    const [a, b] = ctx.stub.requests;
    expect(ctx.stub.requests).toHaveLength(2);
    expect(a!.url).toBe(b!.url);
    expect(a!.headers).toEqual(b!.headers);
    expect(a!.headers['x-trace-id']).toBe('a b');
  });

  it('errors carry the same fields on both paths', async () => {
    const direct = createNodeClient({ baseUrl: ctx.stub.url, retry: false, headers: { 'x-stub-fault': '503' } });
    const viaFetch = createNodeClient({ baseUrl: ctx.stub.url, retry: false, headers: { 'x-stub-fault': '503' }, fetch: passThrough });
    const a = await rejectionOf(direct.v2.getAccount(alice));
    const b = await rejectionOf(viaFetch.v2.getAccount(alice));
    expect(a).toBeInstanceOf(HttpError);
    expect({ ...(a as HttpError), message: (a as HttpError).message }).toEqual({ ...(b as HttpError), message: (b as HttpError).message });
  });
});
