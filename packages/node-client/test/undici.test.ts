/**
 * The undici transport (`@x/node-client/node`): what `http` guarantees, over real loopback HTTP. Successes
 * and walks over the node stub (alone and under `fallback`), then what servers of the test's own do:
 * silence (timeout, abort), 404 and 410, another chain, bodies past the limit, redirects.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ChainIdMismatchError,
  createNodeClient,
  fallback,
  getAccountV2,
  HistoryPrunedError,
  HttpError,
  InvalidArgumentError,
  NetworkError,
  ResponseTooLargeError,
  TimeoutError,
  walkTransactionsV2,
} from '@x/node-client';
import { httpUndici } from '@x/node-client/node';
import { startNodeStub, STUB_ACCOUNTS } from '@x/testing';
import { startSilentServer } from '@x-tools/scripted-server';
import { collect, rejectionOf, useNodeStub } from '@x-tools/test-helpers';

const ctx = useNodeStub();
const ADDRESS = `0x${'ab'.repeat(32)}`;
const ACCOUNT = { sequence_number: 7, authentication_key: `0x${'cd'.repeat(32)}` };

type Served = { url: string; requests: IncomingMessage[] };
const servers: Server[] = [];
/** A loopback server of the test's own; closed after each test. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Served> {
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.closeAllConnections() ?? s.close(resolve))));
});

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

describe('httpUndici answers as http does', () => {
  it('an account over the stub, through an action and through createNodeClient', async () => {
    const viaFetch = await createNodeClient({ baseUrl: ctx.stub.url }).v3.getAccount(STUB_ACCOUNTS.alice);
    const node = httpUndici({ baseUrl: ctx.stub.url });
    expect(await createNodeClient({ transport: node }).v3.getAccount(STUB_ACCOUNTS.alice)).toEqual(viaFetch);
    expect(await getAccountV2(node, STUB_ACCOUNTS.alice)).toEqual(await createNodeClient({ baseUrl: ctx.stub.url }).v2.getAccount(STUB_ACCOUNTS.alice));
  });

  it('walks, alone and under fallback([httpUndici(a), httpUndici(b)])', async () => {
    const expected = await collect(createNodeClient({ baseUrl: ctx.stub.url }).v2.transactions(STUB_ACCOUNTS.busy, { limit: 250 }));
    expect(await collect(walkTransactionsV2(httpUndici({ baseUrl: ctx.stub.url }), STUB_ACCOUNTS.busy, { concurrency: 4, limit: 250 }))).toEqual(expected);
    const down = await serve((_req, res) => json(res, 503, { message: 'maintenance' }));
    const both = fallback([httpUndici({ baseUrl: down.url, retry: false }), httpUndici({ baseUrl: ctx.stub.url, retry: false })]);
    expect(await collect(walkTransactionsV2(both, STUB_ACCOUNTS.busy, { limit: 250 }))).toEqual(expected);
    expect(down.requests.length).toBeGreaterThan(0);
    expect(await createNodeClient({ transport: both }).v3.getAccount(STUB_ACCOUNTS.alice)).toMatchObject({ sequence_number: expect.anything() });
  });

  it('a POST read sends its JSON body with its own content type', async () => {
    const request = { function: '0x1::coin::balance' as const, type_arguments: ['0x1::supra_coin::SupraCoin'] as [string], arguments: [STUB_ACCOUNTS.alice] as [string] };
    const viaFetch = await createNodeClient({ baseUrl: ctx.stub.url }).v3.view(request);
    const node = createNodeClient({ transport: httpUndici({ baseUrl: ctx.stub.url, headers: { 'content-type': 'text/plain' } }) });
    expect(await node.v3.view(request)).toEqual(viaFetch);
  });

  it('refuses a fetch option, naming it', () => {
    const err = (() => {
      try {
        httpUndici({ baseUrl: ctx.stub.url, fetch: (r: Request) => fetch(r) } as never);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'fetch' });
  });
});

describe('the default dispatcher', () => {
  it("works when the global dispatcher is another undici's (Node's own fetch, run first, installs its bundled one)", async () => {
    const server = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ACCOUNT)));
    const key = Symbol.for('undici.globalDispatcher.1');
    const global = globalThis as Record<symbol, unknown>;
    const saved = global[key];
    // What Node 20's bundled undici 6 answers undici 7's handlers with (nodejs/undici#4827).
    const foreign = { dispatch: () => { throw new TypeError('invalid onError method'); } };
    try {
      global[key] = foreign;
      await expect(getAccountV2(httpUndici({ baseUrl: server.url, retry: false }), ADDRESS)).resolves.toEqual(ACCOUNT);
    } finally {
      global[key] = saved;
    }
  });
});

describe('every call ends', () => {
  it('a silent node times out, and its connection is closed', async () => {
    const server = await startSilentServer();
    try {
      const err = await rejectionOf(getAccountV2(httpUndici({ baseUrl: server.url, retry: false, timeoutMs: 100 }), '0x1'));
      expect(err).toBeInstanceOf(TimeoutError);
      expect(err).toMatchObject({ code: 'TIMEOUT', timeoutMs: 100 });
      await vi.waitFor(() => expect(server.closed).toEqual([true]), { timeout: 10_000 });
    } finally {
      await server.close();
    }
  });

  it("the caller's abort rejects with its reason at once, and the connection is closed", async () => {
    const server = await startSilentServer();
    try {
      const controller = new AbortController();
      const reason = new Error('stop');
      const call = getAccountV2(httpUndici({ baseUrl: server.url, retry: false, timeoutMs: 60_000 }), '0x1', { signal: controller.signal });
      await vi.waitFor(() => expect(server.closed).toEqual([false]), { timeout: 10_000 });
      controller.abort(reason);
      expect(await rejectionOf(call)).toBe(reason);
      await vi.waitFor(() => expect(server.closed).toEqual([true]), { timeout: 10_000 });
    } finally {
      await server.close();
    }
  });
});

describe('error answers are the same errors', () => {
  it('a 404 is an HttpError with the node message', async () => {
    const node = await serve((_req, res) => json(res, 404, { message: 'Some("account not found")' }));
    const err = await rejectionOf(getAccountV2(httpUndici({ baseUrl: node.url, retry: false }), ADDRESS));
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ code: 'HTTP_ERROR', status: 404, body: { message: 'Some("account not found")' } });
    expect((err as Error).message).toContain('account not found');
  });

  it('a 410 is a HistoryPrunedError with the oldest block', async () => {
    const pruned = await startNodeStub({ seed: 7, chainId: 6, oldestBlock: 100 });
    try {
      const err = await rejectionOf(createNodeClient({ transport: httpUndici({ baseUrl: pruned.url, retry: false }) }).v3.getBlockByHeight(5));
      expect(err).toBeInstanceOf(HistoryPrunedError);
      expect(err).toMatchObject({ status: 410, oldestBlock: 100n });
      // Another chain's 410 says nothing of this one's history.
      const other = await rejectionOf(createNodeClient({ transport: httpUndici({ baseUrl: pruned.url, retry: false, chainId: 8 }) }).v3.getBlockByHeight(5));
      expect(other).toBeInstanceOf(ChainIdMismatchError);
      expect(other).toMatchObject({ code: 'CHAIN_ID_MISMATCH', expected: 8, received: 6 });
    } finally {
      await pruned.close();
    }
  });

  it('a 503 is retried, honouring its Retry-After', async () => {
    let n = 0;
    const node = await serve((_req, res) => (n++ === 0 ? json(res, 503, { message: 'busy' }, { 'retry-after': '0' }) : json(res, 200, ACCOUNT)));
    const account = await getAccountV2(httpUndici({ baseUrl: node.url, retry: { attempts: 2, sleep: async () => undefined } }), ADDRESS);
    expect(account.sequence_number).toBe(7);
    expect(node.requests).toHaveLength(2);
  });

  it('an error body past 64 KiB keeps its first 64 KiB: the status is the answer', async () => {
    const node = await serve((_req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('e'.repeat(200_000)));
    const err = await rejectionOf(getAccountV2(httpUndici({ baseUrl: node.url, retry: false }), ADDRESS));
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ code: 'HTTP_ERROR', status: 500 });
    expect((err as HttpError).body).toBe('e'.repeat(64 * 1024));
  });

  it('a body past maxResponseBytes is a ResponseTooLargeError, the rest never read', async () => {
    const node = await serve((_req, res) => json(res, 200, { ...ACCOUNT, pad: 'x'.repeat(100_000) }));
    const err = await rejectionOf(getAccountV2(httpUndici({ baseUrl: node.url, retry: false, maxResponseBytes: 4096 }), ADDRESS));
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err).toMatchObject({ code: 'RESPONSE_TOO_LARGE', limitBytes: 4096, status: 200 });
  });

  it('a node that is down is a NetworkError', async () => {
    const node = await serve((req) => req.socket.destroy());
    const err = await rejectionOf(getAccountV2(httpUndici({ baseUrl: node.url, retry: false }), ADDRESS));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ code: 'NETWORK_ERROR' });
  });
});

describe('redirects stay within the origin', () => {
  const headers = { 'x-api-key': 'provider-key' };

  it('a redirect within the origin is followed, with the headers', async () => {
    const node = await serve((req, res) => {
      if (req.url!.startsWith('/old')) json(res, 200, ACCOUNT);
      else res.writeHead(307, { location: `/old${req.url}` }).end();
    });
    const account = await getAccountV2(httpUndici({ baseUrl: node.url, retry: false, headers }), ADDRESS);
    expect(account.sequence_number).toBe(7);
    expect(node.requests.map((r) => r.headers['x-api-key'])).toEqual(['provider-key', 'provider-key']);
  });

  it('a redirect to another origin is not followed: the other origin gets nothing, and the 3xx is the answer', async () => {
    const other = await serve((_req, res) => json(res, 200, ACCOUNT));
    const node = await serve((req, res) => res.writeHead(302, { location: `${other.url}${req.url}` }).end());
    const err = await rejectionOf(getAccountV2(httpUndici({ baseUrl: node.url, retry: false, headers }), ADDRESS));
    expect(other.requests).toHaveLength(0);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ code: 'HTTP_ERROR', status: 302 });
    expect((err as Error).message).toContain(`redirect not followed: it leads to another origin (${other.url})`);
  });
});

