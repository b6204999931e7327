/**
 * One send path: `raw.use()` middleware sees every call made after it is registered (run as
 * openapi-fetch runs it), and a client with middleware sends the same wire requests as one without.
 */
import { describe, expect, it } from 'vitest';
import { createNodeClient, HttpError, type NodeClient } from '@x/node-client';
import { STUB_ACCOUNTS } from '@x/testing';
import { rejectionOf, useNodeStub } from '@x-tools/test-helpers';

const ctx = useNodeStub();
const { alice, publisher } = STUB_ACCOUNTS;
const passThrough = { onRequest: () => undefined };

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

describe('with and without middleware', () => {
  it.each(calls)('%s: both send the same URL and headers', async (_name, call) => {
    const options = { baseUrl: `${ctx.stub.url}/`, retry: false as const, headers: { 'x-trace-id': 'a b', 'X-Mixed-Case': 'v' } };
    const direct = createNodeClient(options);
    const viaMiddleware = createNodeClient(options);
    viaMiddleware.raw.use(passThrough);
    await call(direct).catch(() => undefined); // some inputs are unknown to the stub: the request is what counts
    await call(viaMiddleware).catch(() => undefined);
    const [a, b] = ctx.stub.requests;
    expect(ctx.stub.requests).toHaveLength(2);
    expect(a!.url).toBe(b!.url);
    expect(a!.headers).toEqual(b!.headers);
    expect(a!.headers['x-trace-id']).toBe('a b');
  });

  it('errors carry the same fields on both paths', async () => {
    const direct = createNodeClient({ baseUrl: ctx.stub.url, retry: false, headers: { 'x-stub-fault': '503' } });
    const viaMiddleware = createNodeClient({ baseUrl: ctx.stub.url, retry: false, headers: { 'x-stub-fault': '503' } });
    viaMiddleware.raw.use(passThrough);
    const a = await rejectionOf(direct.v2.getAccount(alice));
    const b = await rejectionOf(viaMiddleware.v2.getAccount(alice));
    expect(a).toBeInstanceOf(HttpError);
    expect({ ...(a as HttpError), message: (a as HttpError).message }).toEqual({ ...(b as HttpError), message: (b as HttpError).message });
  });
});

describe('raw.use() and raw.eject()', () => {
  it('middleware registered after the first calls sees the later ones, until it is ejected', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    const seen: string[] = [];
    const middleware = {
      onRequest({ request }: { request: Request }) {
        seen.push(new URL(request.url).pathname);
      },
    };
    await node.v2.getAccount(alice);
    node.raw.use(middleware);
    await node.v2.getAccount(alice);
    expect(seen).toEqual([`/rpc/v2/accounts/${alice}`]);
    node.raw.eject(middleware);
    await node.v2.getAccount(alice);
    expect(seen).toHaveLength(1);
    expect(ctx.stub.requests).toHaveLength(3);
    expect(ctx.stub.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'GET']);
  });

  it('counts a middleware registered twice until it is ejected twice, as openapi-fetch does', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    let calls = 0;
    const middleware = { onRequest: () => void calls++ };
    node.raw.use(middleware, middleware);
    node.raw.eject(middleware);
    await node.v2.getAccount(alice);
    expect(calls).toBe(1);
    node.raw.eject(middleware, { onRequest: () => undefined }); // ejecting one never registered changes nothing
    await node.v2.getAccount(alice);
    expect(calls).toBe(1);
  });

  it('keeps the middleware registered before an invalid one, and skips empty entries', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    let calls = 0;
    const middleware = { onRequest: () => void calls++ };
    expect(() => node.raw.use(undefined as never, middleware, {} as never)).toThrow(/Middleware must be an object/);
    await node.v2.getAccount(alice);
    expect(calls).toBe(1);
  });
});
