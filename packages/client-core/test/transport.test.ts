/**
 * The Transport on its own, constructed directly (no client on top): a success, a timeout, a caller's
 * abort, a retried 503, an HttpError, a body that is not JSON, the `fetch` option, the headers and a
 * bad argument, each against a loopback server of this file's own (node:http on 127.0.0.1).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { integer } from '@x/common';
import { checkHeaders, redactUrl, HttpError, InvalidArgumentError, REDACTED, ResponseParseError, TimeoutError, createTransport, type OneNodeOptions, type Transport, type OperationSpec } from '@x/client-core';

const PATH = '/items/{id}';
const GET_ITEM: OperationSpec = {
  method: 'GET',
  path: PATH,
  params: [
    // An ad-hoc parameter's check, written as `pnpm gen` writes a spec's (without one, only `required` is checked).
    { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 0 }, check: (v, n, bad) => integer(v, n, bad, 1, 0) },
    { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 }, check: (v, n, bad) => integer(v, n, bad, 0, 1, 100) },
  ],
};

/** What the server saw of one request: its URL and headers, and whether it was closed before an answer. */
type Seen = { url: string; headers: IncomingMessage['headers']; closedEarly: Promise<boolean> };
type Server = { url: string; seen: Seen[]; close(): Promise<void> };

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A loopback server answering with `handler` (which may also never answer), closed after the test. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse, n: number) => void): Promise<Server> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const closedEarly = new Promise<boolean>((resolve) => res.on('close', () => resolve(!res.writableFinished)));
    seen.push({ url: req.url ?? '', headers: req.headers, closedEarly });
    handler(req, res, seen.length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const s: Server = {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(s);
  return s;
}

function json(res: ServerResponse, body: unknown, status = 200, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function transport(server: Server, options: Omit<OneNodeOptions, 'baseUrl'> = {}): Transport {
  return createTransport({ retry: false, ...options, baseUrl: server.url });
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );
}

describe('Transport, constructed directly', () => {
  it('sends the path and query parameters and resolves to the parsed body', async () => {
    const server = await serve((_req, res) => json(res, { id: 7, name: 'seven' }));
    const body = await transport(server, { headers: { 'x-client': 'test' } }).call('getItem', GET_ITEM, { id: 7, limit: 5 });
    expect(body).toEqual({ id: 7, name: 'seven' });
    expect(server.seen.map((s) => s.url)).toEqual(['/items/7?limit=5']);
    expect(server.seen[0]!.headers['x-client']).toBe('test');
  });

  it('an ad-hoc parameter without a check: a lone surrogate is an InvalidArgumentError naming it, with no request sent', async () => {
    const server = await serve((_req, res) => json(res, {}));
    const op: OperationSpec = { method: 'GET', path: '/names/{name}', params: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }] };
    const err = await rejectionOf(transport(server).call('getName', op, { name: 'a\uD800' }));
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'name' });
    expect(server.seen).toHaveLength(0);
  });

  it('times out: TimeoutError at once, and the request is closed at the server', async () => {
    const server = await serve(() => {}); // never answers
    const started = Date.now();
    // Long enough for the request to reach the server on a loaded machine (it failed at 100 ms under a load of 10).
    const err = await rejectionOf(transport(server, { timeoutMs: 500 }).call('getItem', GET_ITEM, { id: 1 }));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ code: 'TIMEOUT', timeoutMs: 500, method: 'GET', url: `${server.url}/items/1` });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await server.seen[0]!.closedEarly).toBe(true);
  });

  it("a caller's abort rejects with the signal's reason, and the request is closed at the server", async () => {
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    const server = await serve(() => arrived()); // never answers
    const controller = new AbortController();
    const call = transport(server).call('getItem', GET_ITEM, { id: 2 }, { signal: controller.signal });
    await arrival;
    const reason = new Error('the caller gave up');
    controller.abort(reason);
    expect(await rejectionOf(call)).toBe(reason);
    expect(await server.seen[0]!.closedEarly).toBe(true);
  });

  it('retries a 503 after the delay it asks for, then resolves to the answer', async () => {
    const server = await serve((_req, res, n) => (n === 1 ? json(res, { message: 'busy' }, 503, { 'retry-after': '1' }) : json(res, { ok: true })));
    const delays: number[] = [];
    const t = transport(server, { retry: { attempts: 3, sleep: async (ms) => void delays.push(ms) } });
    expect(await t.call('getItem', GET_ITEM, { id: 3 })).toEqual({ ok: true });
    expect(delays).toEqual([1_000]);
    expect(server.seen).toHaveLength(2);
  });

  it('a 404 is an HttpError with status, body, retryAfterMs and headers, secret headers redacted', async () => {
    const server = await serve((_req, res) => json(res, { message: 'no such item' }, 404, { 'set-cookie': 's=abc', 'x-api-key': 'k-123', 'x-request-id': 'r-1' }));
    const err = await rejectionOf(transport(server).call('getItem', GET_ITEM, { id: 4 }));
    expect(err).toBeInstanceOf(HttpError);
    const http = err as HttpError;
    expect(http).toMatchObject({ code: 'HTTP_ERROR', status: 404, method: 'GET', url: `${server.url}/items/4`, body: { message: 'no such item' }, retryAfterMs: undefined });
    expect(http.headers).toMatchObject({ 'content-type': 'application/json', 'set-cookie': REDACTED, 'x-api-key': REDACTED, 'x-request-id': 'r-1' });
    expect(JSON.stringify(http.headers)).not.toMatch(/abc|k-123/);
    expect(server.seen).toHaveLength(1); // a 404 is not retried
  });

  it('a 200 whose body is not JSON is a ResponseParseError', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    });
    const err = await rejectionOf(transport(server).call('getItem', GET_ITEM, { id: 5 }));
    expect(err).toBeInstanceOf(ResponseParseError);
    expect(err).toMatchObject({ status: 200, method: 'GET', url: `${server.url}/items/5` });
  });

  it.each([
    { name: 'a missing required parameter', args: {}, parameter: 'id' },
    { name: 'a path parameter of the wrong type', args: { id: 'seven' }, parameter: 'id' },
    { name: 'a path parameter below its minimum', args: { id: -1 }, parameter: 'id' },
    { name: 'a query parameter above its maximum', args: { id: 1, limit: 1_000 }, parameter: 'limit' },
  ])('$name: InvalidArgumentError naming the parameter, and no request', async ({ args, parameter }) => {
    const server = await serve((_req, res) => json(res, {}));
    const err = await rejectionOf(transport(server).call('getItem', GET_ITEM, args));
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter });
    expect(server.seen).toHaveLength(0);
  });
});

describe('the fetch option: one Request per attempt, to observe or alter', () => {
  it('is called with one Request per attempt, with the URL and headers sent; what it sends is what the server sees', async () => {
    const server = await serve((_req, res, n) => (n === 1 ? json(res, { message: 'busy' }, 503) : json(res, { id: 6 })));
    const seen: string[] = [];
    const t = transport(server, {
      headers: { 'x-client': 'test' },
      retry: { attempts: 2, sleep: async () => {} },
      fetch: (request) => {
        seen.push(`${request.method} ${request.url} x-client=${request.headers.get('x-client')} redirect=${request.redirect}`);
        const marked = new Request(request);
        marked.headers.set('x-mark', 'from-fetch');
        return fetch(marked);
      },
    });
    expect(await t.call('getItem', GET_ITEM, { id: 6, limit: 2 })).toEqual({ id: 6 });
    const line = `GET ${server.url}/items/6?limit=2 x-client=test redirect=manual`;
    expect(seen).toEqual([line, line]);
    expect(server.seen.map((s) => [s.url, s.headers['x-mark']])).toEqual([
      ['/items/6?limit=2', 'from-fetch'],
      ['/items/6?limit=2', 'from-fetch'],
    ]);
  });

  it('a Request the runtime refuses (a forbidden method) is thrown as it is, once: nothing was sent, so nothing is retried', async () => {
    const server = await serve((_req, res) => json(res, {}));
    let calls = 0;
    let sleeps = 0;
    const t = transport(server, {
      retry: { attempts: 3, sleep: async () => void sleeps++ },
      fetch: (request) => (calls++, fetch(request)),
    });
    const err = await rejectionOf(t.call('traceItem', { method: 'TRACE', path: '/items', params: [] }, {}));
    expect(err).toBeInstanceOf(TypeError);
    expect({ calls, sleeps, sent: server.seen.length }).toEqual({ calls: 0, sleeps: 0, sent: 0 });
  });

  it('may answer itself: the transport reads its Response', async () => {
    const server = await serve((_req, res) => json(res, { from: 'server' }));
    const t = transport(server, { fetch: async () => Response.json({ from: 'fetch' }) });
    expect(await t.call('getItem', GET_ITEM, { id: 8 })).toEqual({ from: 'fetch' });
    expect(server.seen).toHaveLength(0);
  });
});

describe('headers, merged once', () => {
  it('leaves out null and undefined, sends numbers and booleans as text and a list as its items', async () => {
    const server = await serve((_req, res) => json(res, {}));
    const headers = { 'X-Number': 5, 'x-flag': true, 'x-list': ['a', 'b'], 'x-none': undefined, 'x-null': null } as unknown as Record<string, string>;
    for (const fetch of [undefined, (request: Request) => globalThis.fetch(request)]) {
      await transport(server, { headers, ...(fetch && { fetch }) }).call('getItem', GET_ITEM, { id: 1 });
    }
    for (const { headers: h } of server.seen) {
      expect([h['x-number'], h['x-flag'], h['x-list'], 'x-none' in h, 'x-null' in h]).toEqual(['5', 'true', 'a, b', false, false]);
    }
    expect(server.seen).toHaveLength(2);
  });
  it('checkHeaders returns them as they are sent: lowercase names in order, a list one value per item, none when empty', () => {
    expect(checkHeaders({ 'X-A': 'x', 'x-b': [1, true], 'X-B': ['c'], 'x-none': undefined } as unknown as Record<string, string>)).toEqual([['x-a', 'x'], ['x-b', '1, true, c']]);
    expect(checkHeaders({ 'x-none': undefined })).toBeUndefined();
    // A line break at an end (Headers would cut it off) and control characters (Headers lets them through; fetch refuses them on every call).
    for (const value of ['ok\r\n', 'ok\x01', 'ok\x7f', '\nok'])
      expect(() => checkHeaders({ 'x-a': value }, 'apiKey'), JSON.stringify(value)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', parameter: 'apiKey', message: `Invalid argument 'apiKey': bad header "x-a"` }));
  });
  it.each([
    ['https://u:p@host/a?api_key=abc&count=2', 'https://host/a?api_key=[REDACTED]&count=2'],
    // A password with an @, and the backslashes a URL parser takes for slashes: the whole userinfo goes.
    ['https://user:s3cr@t@node.example/ws', 'https://node.example/ws'],
    ['https:\\\\user:s3cret@node.example/ws', 'https:\\\\node.example/ws'],
    // A name read with its escapes undone.
    ['http://h/x?%61pi_%6Bey=s3cret&n=1', 'http://h/x?%61pi_%6Bey=[REDACTED]&n=1'],
    ['not a url ?token=abc', 'not a url ?token=[REDACTED]'],
  ])('redactUrl(%j) is %j', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });
});
