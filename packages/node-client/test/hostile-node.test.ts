/**
 * A node that wants to freeze, flood or fool the client, over real loopback servers of the test's own:
 * error text built to make regular expressions backtrack, bodies without end (plain, gzip-inflating, or
 * announced too long), redirects to another origin, maintenance pages on a preferred node, and walks
 * whose pages lie (an empty history below a huge sequence number, overlapping pages, fresh cursors with
 * the same items, cursors of 100 kB or with a lone surrogate). Each case failed before the client
 * bounded what it reads and checked what it is told.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createNodeClient,
  explain,
  HttpError,
  InvalidArgumentError,
  NodesFailedError,
  ResponseParseError,
  ResponseShapeError,
  ResponseTooLargeError,
  ResponseValidationError,
  type ResponseValidator,
} from '@x/node-client';
import { rejectionOf } from '@x-tools/test-helpers';
import { HOSTILE_ERROR_TEXTS } from './hostile-error-text.ts';

const ADDRESS = '0x1';
const ACCOUNT = { sequence_number: 7, authentication_key: `0x${'ab'.repeat(32)}` };

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;
type Server = { url: string; requests: { path: string; headers: IncomingMessage['headers'] }[]; closed: number; close(): Promise<void> };

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A loopback server whose answers `handler` writes; counts requests the client closed before the end. */
async function serve(handler: Handler): Promise<Server> {
  const server = createServer();
  const self: Server = {
    url: '',
    requests: [],
    closed: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', self.url);
    self.requests.push({ path: url.pathname + url.search, headers: req.headers });
    res.on('close', () => {
      if (!res.writableFinished) self.closed++;
    });
    handler(req, res, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push(self);
  return self;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};

/** A readable that produces `chunk` until destroyed: an endless body. */
const endless = (chunk: Buffer): Readable => new Readable({ read() { this.push(chunk); } });

/** Resolves once `check` holds, polling every 10 ms (the server sees a close a moment after the client). */
async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

describe('text built to make regular expressions backtrack', () => {
  // That reading it takes time linear in its length is hostile-node.perf.test.ts's check.
  it.each(HOSTILE_ERROR_TEXTS)('%s, 100,000 characters of it: an HttpError with a short message', async (_name, status, body) => {
    const server = await serve((_req, res) => json(res, status, body(100_000)));
    const err = await rejectionOf(createNodeClient({ baseUrl: server.url, retry: false }).v2.getAccount(ADDRESS));
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).message.length).toBeLessThan(400);
  });
});

describe('a response is bounded by maxResponseBytes', () => {
  const LIMIT = 1024 * 1024;

  it.each([
    ['an endless body', (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      endless(Buffer.alloc(64 * 1024, 0x20)).pipe(res);
    }],
    ['a gzip body that inflates without end', (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      endless(Buffer.alloc(1024 * 1024, 0x20)).pipe(createGzip()).pipe(res);
    }],
    ['a Content-Length past the limit', (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(LIMIT + 1) });
      endless(Buffer.alloc(64 * 1024, 0x20)).pipe(res);
    }],
  ])('%s ends the call with ResponseTooLargeError naming the limit and the node, and releases the connection', async (_name, answer) => {
    const server = await serve((_req, res) => answer(res));
    const node = createNodeClient({ baseUrl: server.url, retry: false, maxResponseBytes: LIMIT });
    const err = await rejectionOf(node.v2.getAccount(ADDRESS));
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err).toMatchObject({ code: 'RESPONSE_TOO_LARGE', limitBytes: LIMIT, status: 200, method: 'GET' });
    expect((err as ResponseTooLargeError).url.startsWith(server.url)).toBe(true);
    expect((err as Error).message).toContain(`over ${LIMIT} bytes`);
    await eventually(() => server.closed === 1);
  });

  it('a body just under the limit is read whole', async () => {
    const pad = 'x'.repeat(LIMIT - JSON.stringify({ ...ACCOUNT, pad: '' }).length);
    const server = await serve((_req, res) => json(res, 200, { ...ACCOUNT, pad }));
    const node = createNodeClient({ baseUrl: server.url, retry: false, maxResponseBytes: LIMIT });
    expect((await node.v2.getAccount(ADDRESS)).sequence_number).toBe(7);
  });

  it('an endless error body keeps its status and the first 64 KiB', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      endless(Buffer.alloc(64 * 1024, 0x61)).pipe(res);
    });
    const err = await rejectionOf(createNodeClient({ baseUrl: server.url, retry: false }).v2.getAccount(ADDRESS));
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 500 });
    expect(((err as HttpError).body as string).length).toBe(64 * 1024);
    await eventually(() => server.closed === 1);
  });

  it.each([0, 1.5, -1, 2 ** 40, '1'])('maxResponseBytes %s is refused', (value) => {
    const err = (() => {
      try {
        createNodeClient({ baseUrl: 'http://127.0.0.1:1', maxResponseBytes: value as number });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'maxResponseBytes' });
  });
});

describe('no header crosses an origin', () => {
  const headers = { 'x-api-key': 'provider-key', authorization: 'Bearer t', cookie: 's=1' };

  it('a redirect to another origin is not followed: the other origin gets nothing, and the 3xx is the answer', async () => {
    const other = await serve((_req, res) => json(res, 200, ACCOUNT));
    const node = await serve((req, res) => res.writeHead(302, { location: `${other.url}${req.url}` }).end());
    const err = await rejectionOf(createNodeClient({ baseUrl: node.url, retry: false, headers }).v2.getAccount(ADDRESS));
    expect(other.requests).toHaveLength(0);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ code: 'HTTP_ERROR', status: 302 });
    expect((err as Error).message).toContain(`redirect not followed: it leads to another origin (${other.url})`);
  });

  it.each([
    ['the direct path', {}],
    ['a custom fetch', { fetch: (request: Request) => fetch(request) }],
  ])('through %s, a redirect within the origin is followed with the headers', async (_name, extra) => {
    const node = await serve((req, res, url) => {
      if (url.pathname.startsWith('/old')) json(res, 200, ACCOUNT);
      else res.writeHead(307, { location: `/old${req.url}` }).end();
    });
    const account = await createNodeClient({ baseUrl: node.url, retry: false, headers, ...extra }).v2.getAccount(ADDRESS);
    expect(account.sequence_number).toBe(7);
    expect(node.requests.map((r) => r.headers['x-api-key'])).toEqual(['provider-key', 'provider-key']);
  });

  it.each([
    [{ 'x-api-key': 'key\r\nx-injected: 1' }, 'x-api-key'],
    [{ 'x-api-key': 'key\n' }, 'x-api-key'],
    [{ 'x-api-key': 'k\u0000' }, 'x-api-key'],
    [{ 'x-api-key': 'ключ' }, 'x-api-key'],
    [{ 'bad name': 'secret-value' }, 'bad name'],
  ])('header %j is refused at creation, naming the header but not its value', (bad, name) => {
    const err = (() => {
      try {
        createNodeClient({ baseUrl: 'http://127.0.0.1:1', headers: bad });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'headers' });
    // A short message naming the header; explain(err) gives the rules.
    expect((err as Error).message).toBe(`Invalid argument 'headers': bad header ${JSON.stringify(name)}`);
    expect((err as Error).message).not.toContain(Object.values(bad)[0]);
    expect(explain(err)).toContain('A header name is a token');
  });
});

describe('garbage from a preferred node moves the call to the next', () => {
  it.each([
    ['an HTML maintenance page', (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>'), ResponseParseError],
    ['a body the validator rejects', (res: ServerResponse) => json(res, 200, { sequence_number: 'x' }), ResponseValidationError],
    ['a body past maxResponseBytes', (res: ServerResponse) => json(res, 200, { ...ACCOUNT, pad: 'x'.repeat(4096) }), ResponseTooLargeError],
    ['a redirect to another origin', (res: ServerResponse) => res.writeHead(302, { location: 'http://127.0.0.2:1/' }).end(), HttpError],
  ])('%s', async (_name, answer, errorClass) => {
    const validator: ResponseValidator = (_id, _status, body) =>
      typeof (body as { sequence_number?: unknown }).sequence_number === 'number' ? { ok: true } : { ok: false, issues: [{ path: '/sequence_number', message: 'must be integer', keyword: 'type' }] };
    const options = { retry: false as const, validator, maxResponseBytes: 1024 };
    const broken = await serve((_req, res) => answer(res));
    const healthy = await serve((_req, res) => json(res, 200, ACCOUNT));
    const node = createNodeClient({ baseUrl: [broken.url, healthy.url], ...options });
    expect((await node.v2.getAccount(ADDRESS)).sequence_number).toBe(7);
    expect(healthy.requests).toHaveLength(1);

    // Every node broken: each one's reason; one node: its own error, as before.
    const both = createNodeClient({ baseUrl: [broken.url, (await serve((_req, res) => answer(res))).url], ...options });
    const all = await rejectionOf(both.v2.getAccount(ADDRESS));
    expect(all).toBeInstanceOf(NodesFailedError);
    expect((all as NodesFailedError).attempts.map((a) => a.error)).toEqual([expect.any(errorClass), expect.any(errorClass)]);
    expect(await rejectionOf(createNodeClient({ baseUrl: broken.url, ...options }).v2.getAccount(ADDRESS))).toBeInstanceOf(errorClass);
  });
});

describe('a body every node sends and the validator refuses (the contract drifted)', () => {
  it('is a NodesFailedError of ResponseValidationErrors, and no node rests: the next call goes to the first again', async () => {
    const answer = (res: ServerResponse, url: URL) => json(res, 200, url.pathname.endsWith('/resources') ? { drifted: true } : ACCOUNT);
    const [a, b] = [await serve((_req, res, url) => answer(res, url)), await serve((_req, res, url) => answer(res, url))];
    const validator: ResponseValidator = (id) => (id === 'listResourcesV2' ? { ok: false, issues: [{ path: '/resources', message: 'is required', keyword: 'required' }] } : { ok: true });
    const node = createNodeClient({ baseUrl: [a.url, b.url], validator });
    const err = await rejectionOf(node.v2.listResources(ADDRESS));
    expect(err).toBeInstanceOf(NodesFailedError);
    expect((err as NodesFailedError).attempts.map((x) => x.error)).toEqual([expect.any(ResponseValidationError), expect.any(ResponseValidationError)]);
    expect((await node.v2.getAccount(ADDRESS)).sequence_number).toBe(7);
    expect(a.requests.map((r) => r.path.split('?')[0]!.split('/').pop())).toEqual(['resources', ADDRESS]);
  });
});

describe('every walk ends on a lying node', () => {
  /** A v2 transaction as a walk reads it. */
  const tx = (n: number | bigint) => ({ hash: `0x${n.toString(16).padStart(64, '0')}`, header: { sequence_number: Number(n), sender: { Move: ADDRESS } } });

  it("order: 'desc' over an empty history below a sequence number near 2^53 stops after a bounded run of empty windows", async () => {
    const top = 2 ** 53 - 2;
    const node = await serve((_req, res, url) => {
      const start = url.searchParams.get('start');
      json(res, 200, { record: start === null ? Array.from({ length: 100 }, (_, i) => tx(top - i)) : [] });
    });
    const client = createNodeClient({ baseUrl: node.url, retry: false });
    let yielded = 0;
    const err = await rejectionOf(
      (async () => {
        for await (const _ of client.v2.transactions(ADDRESS, { order: 'desc', concurrency: 4 })) yielded++;
      })(),
    );
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err).toMatchObject({ code: 'RESPONSE_SHAPE_ERROR', operationId: 'listTransactionsV2' });
    expect((err as Error).message).toContain('32 windows in a row held none');
    expect(yielded).toBe(100);
    // The newest page, 32 empty windows, and at most the 3 more fetched ahead.
    expect(node.requests.length).toBeLessThanOrEqual(1 + 32 + 3);
  });

  it("order: 'desc' over a node that pruned its older history ends quietly with all it has", async () => {
    // Sequence numbers 0 ... 1,099, of which the node still holds 900 ... 1,099.
    const node = await serve((_req, res, url) => {
      const start = url.searchParams.get('start');
      const count = Number(url.searchParams.get('count') ?? 100);
      const from = start === null ? 1000 : Math.max(Number(start), 900);
      const to = start === null ? 1100 : Math.min(Number(start) + count, 1100);
      json(res, 200, { record: Array.from({ length: Math.max(0, to - from) }, (_, i) => tx(from + i)) });
    });
    const client = createNodeClient({ baseUrl: node.url, retry: false });
    const seen: number[] = [];
    for await (const t of client.v2.transactions(ADDRESS, { order: 'desc' })) seen.push(t.header.sequence_number);
    expect(seen).toHaveLength(200);
    expect(seen.slice(100)).toEqual(Array.from({ length: 100 }, (_, i) => 999 - i));
  });

  it.each([1, 4])('pages that overlap the ones before stop the walk (concurrency %i) instead of yielding an item again', async (concurrency) => {
    // Each page starts 50 below the start asked: half of it was yielded already.
    const node = await serve((_req, res, url) => {
      const start = Number(url.searchParams.get('start') ?? 0);
      const from = Math.max(0, start - 50);
      json(res, 200, { record: Array.from({ length: 100 }, (_, i) => tx(from + i)) });
    });
    const client = createNodeClient({ baseUrl: node.url, retry: false });
    const seen: number[] = [];
    const err = await rejectionOf(
      (async () => {
        for await (const t of client.v2.transactions(ADDRESS, { concurrency })) seen.push(t.header.sequence_number);
      })(),
    );
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err).toMatchObject({ operationId: 'listTransactionsV2', path: '/record/0/header/sequence_number' });
    expect(new Set(seen).size).toBe(seen.length);
    expect(node.requests.length).toBeLessThan(10);
  });

  it('fresh cursors with the same items stop a cursor walk', async () => {
    let page = 0;
    const node = await serve((_req, res) => json(res, 200, { record: [tx(1), tx(2)], cursor: ++page }));
    const client = createNodeClient({ baseUrl: node.url, retry: false });
    let yielded = 0;
    const err = await rejectionOf(
      (async () => {
        for await (const _ of client.v2.coinTransactions(ADDRESS, { pageSize: 2 })) yielded++;
      })(),
    );
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err).toMatchObject({ operationId: 'listCoinTransactionsV2', path: '/record/0' });
    expect(yielded).toBe(2);
  });

  it.each([
    ['a 100 kB cursor', () => 'c'.repeat(100_000)],
    ['a cursor with a lone surrogate', () => 'ab\uD800'],
  ])('%s is a ResponseShapeError at the page that sent it', async (_name, cursor) => {
    let page = 0;
    const node = await serve((_req, res) => json(res, 200, { modules: [{ n: ++page }], cursor: cursor() }));
    const client = createNodeClient({ baseUrl: node.url, retry: false });
    const err = await rejectionOf(
      (async () => {
        for await (const _ of client.v2.modules(ADDRESS)) void _;
      })(),
    );
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err).toMatchObject({ operationId: 'listModulesV2', path: '/cursor' });
    expect(node.requests).toHaveLength(1);
  });

  it("a caller's cursor with a lone surrogate is an InvalidArgumentError naming 'start', before any request", async () => {
    const node = await serve((_req, res) => json(res, 200, { modules: [], cursor: '' }));
    const client = createNodeClient({ baseUrl: node.url, retry: false });
    const err = await rejectionOf(client.v2.listModules(ADDRESS, { start: 'ab\uDC00' }));
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'start' });
    expect(node.requests).toHaveLength(0);
  });
});
