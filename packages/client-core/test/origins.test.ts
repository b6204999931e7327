/**
 * Origins and hosts: an answer is the node's only when it came from the origin asked, and a path is
 * always joined under the base URL. Over loopback servers of the test's own: a custom `fetch` that
 * follows redirects itself (it drops `redirect: 'manual'`) must not make another origin's answer the
 * node's, alone or with several nodes; an ad-hoc operation's path that does not start with `/` is
 * refused before any request; the chain check of a service (`check`) applies to error answers too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ChainIdMismatchError, createTransport, fallback, HttpError, InvalidArgumentError, NetworkError, type OperationSpec, type Service, type TransportOptions } from '@x/client-core';
import { startScriptedServer, type ScriptedServer } from '@x-tools/scripted-server';
import { rejectionOf } from '@x-tools/test-helpers';

const GET_ITEM: OperationSpec = { method: 'GET', path: '/items/{id}', params: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 0 } }] };

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A loopback server answering every request with `body` (JSON), or redirecting when `redirect` says where to. */
async function serve(answer: { body?: unknown; status?: number; headers?: Record<string, string>; redirect?: (path: string) => string | undefined }): Promise<ScriptedServer> {
  const server = await startScriptedServer((req, res) => {
    const to = answer.redirect?.(req.url ?? '/');
    if (to !== undefined) return void res.writeHead(302, { location: to }).end();
    const text = JSON.stringify(answer.body ?? {});
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...answer.headers }).end(text);
  });
  servers.push(server);
  return server;
}

/** Custom fetches that do not honour the `redirect: 'manual'` of the Request they are given: they follow. */
const FOLLOWING: [string, (request: Request) => Promise<Response>][] = [
  ['fetch(req.url, { method, headers })', (request) => fetch(request.url, { method: request.method, headers: request.headers })],
  ["new Request(req, { redirect: 'follow' })", (request) => fetch(new Request(request, { redirect: 'follow' }))],
];

const transport = (baseUrl: string | string[], options: TransportOptions = {}, service: Service = {}): { call: ReturnType<typeof createTransport>['call'] } =>
  Array.isArray(baseUrl) ? fallback(baseUrl.map((url) => createTransport({ ...options, baseUrl: url, retry: false }, service))) : createTransport({ ...options, baseUrl, retry: false }, service);

describe('a custom fetch that follows a redirect to another origin', () => {
  it.each(FOLLOWING)('%s: the other origin answer is refused (NetworkError), never resolved', async (_name, fetch) => {
    const other = await serve({ body: { id: 666 } });
    const node = await serve({ redirect: (path) => `${other.url}${path}` });
    const err = await rejectionOf(transport(node.url, { fetch }).call('getItem', GET_ITEM, { id: 1 }));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ code: 'NETWORK_ERROR', method: 'GET', url: `${node.url}/items/1` });
    expect((err as Error).message).toContain(`another origin (${other.url})`);
  });

  it('is not retried: the refusal would repeat', async () => {
    const other = await serve({ body: { id: 666 } });
    const node = await serve({ redirect: (path) => `${other.url}${path}` });
    const [, follow] = FOLLOWING[0]!;
    const t = transport(node.url, { fetch: follow, retry: { attempts: 3, sleep: async () => {} } });
    expect(await rejectionOf(t.call('getItem', GET_ITEM, { id: 1 }))).toBeInstanceOf(NetworkError);
    expect(node.requests).toHaveLength(1);
  });

  it.each(FOLLOWING)('%s, with several nodes: the call moves on to the next node', async (_name, fetch) => {
    const other = await serve({ body: { id: 666 } });
    const node = await serve({ redirect: (path) => `${other.url}${path}` });
    const good = await serve({ body: { id: 1 } });
    expect(await transport([node.url, good.url], { fetch }).call('getItem', GET_ITEM, { id: 1 })).toEqual({ id: 1 });
    expect(good.requests).toHaveLength(1);
  });

  it('a redirect it followed within the origin is taken, as the transport itself takes one', async () => {
    const node = await serve({ body: { id: 2 }, redirect: (path) => (path.startsWith('/moved') ? undefined : `/moved${path}`) });
    const [, follow] = FOLLOWING[0]!;
    expect(await transport(node.url, { fetch: follow }).call('getItem', GET_ITEM, { id: 2 })).toEqual({ id: 2 });
    expect(node.requests.map((r) => r.url)).toEqual(['/items/2', '/moved/items/2']);
  });

  it('an answer that says it was redirected without saying from where is refused', async () => {
    const node = await serve({ body: { id: 3 } });
    const fetch = async (request: Request): Promise<Response> => {
      const response = await globalThis.fetch(request);
      const copy = new Response(response.body, response);
      Object.defineProperty(copy, 'redirected', { value: true });
      return copy;
    };
    expect(await rejectionOf(transport(node.url, { fetch }).call('getItem', GET_ITEM, { id: 3 }))).toBeInstanceOf(NetworkError);
  });

  it('a Response of its own making (no url) is the answer, as before', async () => {
    const node = await serve({ body: { id: 4 } });
    const fetch = async (request: Request): Promise<Response> => {
      const response = await globalThis.fetch(request);
      return new Response(response.body, response);
    };
    expect(await transport(node.url, { fetch }).call('getItem', GET_ITEM, { id: 4 })).toEqual({ id: 4 });
  });
});

describe('an ad-hoc path is joined under the base URL', () => {
  it.each(['.evil.example/rpc', '@evil.example/rpc', 'rpc/v3/block', '', '?x=1'])('%j does not start with /: InvalidArgumentError naming path, nothing sent', async (path) => {
    const sent: string[] = [];
    const t = transport('https://rpc-mainnet.supra.com', { fetch: async (request) => (sent.push(request.url), Response.json({})) });
    const err = await rejectionOf(t.call('adHoc', { method: 'GET', path, params: [] }, {}));
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'path' });
    expect(sent).toEqual([]);
  });

  it('over loopback, with one node and with several: refused before any request', async () => {
    const [node, backup] = [await serve({ body: {} }), await serve({ body: {} })];
    for (const t of [transport(node.url), transport([node.url, backup.url])]) {
      expect(await rejectionOf(t.call('adHoc', { method: 'GET', path: '@127.0.0.1/x', params: [] }, {}))).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'path' });
    }
    expect([...node.requests, ...backup.requests]).toHaveLength(0);
  });

  it('a path that starts with / is sent under the base URL, as before', async () => {
    const node = await serve({ body: { ok: true } });
    expect(await transport(`${node.url}/api`).call('adHoc', { method: 'GET', path: '//x/y', params: [] }, {})).toEqual({ ok: true });
    expect(node.requests.map((r) => r.url)).toEqual(['/api//x/y']);
  });
});

describe("a service's check sees every answer, errors included", () => {
  const chain8: Service = {
    check: (headers, request) => {
      const sent = headers.get('x-chain');
      return sent === null || sent === '8' ? undefined : new ChainIdMismatchError({ expected: 8, received: Number(sent), ...request });
    },
  };

  it.each([410, 404, 503])('an HTTP %i of another chain is a ChainIdMismatchError, not an HttpError', async (status) => {
    const node = await serve({ status, body: { message: 'gone' }, headers: { 'x-chain': '6' } });
    const err = await rejectionOf(transport(node.url, {}, chain8).call('getItem', GET_ITEM, { id: 1 }));
    expect(err).toBeInstanceOf(ChainIdMismatchError);
    expect(err).toMatchObject({ code: 'CHAIN_ID_MISMATCH', expected: 8, received: 6 });
  });

  it('an error answer of the right chain, or without the header, is still its HttpError', async () => {
    for (const headers of [{ 'x-chain': '8' }, {}] as Record<string, string>[]) {
      const node = await serve({ status: 404, body: { message: 'no' }, headers });
      expect(await rejectionOf(transport(node.url, {}, chain8).call('getItem', GET_ITEM, { id: 1 }))).toBeInstanceOf(HttpError);
    }
  });
});
