import { inspect } from 'node:util';
import { beforeEach, describe, expect, it } from 'vitest';
import { createPriceClient, HttpError, type PriceClient } from '@x/price-client';
import { startPriceStub, type PriceStubHandle } from '@x/testing';
import { rejectionOf, usePriceStub } from '@x-tools/test-helpers';
import { client, DAY, expectNoKey, KEY, NOW, recorder, startServer } from './helpers.ts';

const ctx = usePriceStub({ apiKey: KEY });
beforeEach(() => ctx.stub.reset());

const q = { pair: 'btc_usdt', start: NOW - DAY, end: NOW, resolution: 3600 };

/** Every request the stub received carried the key as a header, and nowhere else. */
function expectKeyOnlyInHeader(stub: PriceStubHandle): void {
  expect(stub.requests.length).toBeGreaterThan(0);
  for (const r of stub.requests) {
    expect(r.headers['x-api-key']).toBe(KEY);
    expect(r.url).not.toContain(KEY);
    const others = Object.entries(r.headers).filter(([name]) => name !== 'x-api-key');
    expect(JSON.stringify(others)).not.toContain(KEY);
  }
}

describe('where the key goes', () => {
  it('history and latest send it as the x-api-key header only', async () => {
    const prices = client(ctx.stub);
    await prices.history(q);
    await prices.latest({ pair: 'btc_usdt' });
    expectKeyOnlyInHeader(ctx.stub);
  });

  it('raw requests to another base URL go without it', async () => {
    const other = await startPriceStub({ port: 0, apiKey: KEY });
    try {
      const prices = client(ctx.stub);
      const { response } = await prices.raw.GET('/history', {
        baseUrl: other.url,
        params: { query: { trading_pair: 'btc_usdt', startDate: q.start, endDate: q.end, interval: 3600 } },
      });
      expect(response.status).toBe(401);
      expect(other.requests[0]!.headers['x-api-key']).toBeUndefined();
      // The same call to the configured base URL carries it.
      const { data } = await prices.raw.GET('/latest', {});
      expect(data?.instruments.length).toBeGreaterThan(0);
      expectKeyOnlyInHeader(ctx.stub);
    } finally {
      await other.close();
    }
  });

  it('a path that leaves the base URL goes without it', async () => {
    const prices = client(ctx.stub, { baseUrl: `${ctx.stub.url}/api/` });
    await prices.raw.GET('/latest', {}); // under /api/: keyed (the stub answers 404 for the path)
    await prices.raw.GET('/../latest' as '/latest', {}); // resolves to /latest, outside /api/
    expect(ctx.stub.requests.map((r) => [r.url, r.headers['x-api-key']])).toEqual([
      ['/api/latest', KEY],
      ['/latest', undefined],
    ]);
  });

  it('a custom fetch receives the key only on requests under the base URL', async () => {
    const seen: [string, string | null][] = [];
    const prices = createPriceClient({
      baseUrl: ctx.stub.url,
      apiKey: KEY,
      fetch: (request) => {
        seen.push([new URL(request.url).pathname, request.headers.get('x-api-key')]);
        return fetch(request);
      },
    });
    await prices.history(q);
    const other = await startServer((_req, res) => res.end('{}'));
    try {
      await prices.raw.GET('/latest', { baseUrl: other.url });
    } finally {
      await other.close();
    }
    expect(seen).toEqual([
      ['/history', KEY],
      ['/latest', null],
    ]);
  });

  it('a redirect to another origin is not followed: nothing reaches it, and the 3xx is the answer', async () => {
    const redirector = await startServer((req, res) => {
      res.writeHead(307, { location: `${ctx.stub.url}${req.url}` });
      res.end();
    });
    try {
      const err = await rejectionOf(createPriceClient({ baseUrl: redirector.url, apiKey: KEY, retry: false, headers: { authorization: 'Bearer t', cookie: 's=1' } }).history(q));
      expect(redirector.requests[0]!.headers['x-api-key']).toBe(KEY);
      expect(ctx.stub.requests).toHaveLength(0);
      expect(err).toBeInstanceOf(HttpError);
      expect(err).toMatchObject({ code: 'HTTP_ERROR', status: 307 });
      expect((err as Error).message).toContain(`redirect not followed: it leads to another origin (${ctx.stub.url})`);
      expectNoKey(err);
    } finally {
      await redirector.close();
    }
  });

  it('a redirect within the base URL keeps the key; one out of its path drops it', async () => {
    const server = await startServer((req, res, origin) => {
      const url = new URL(req.url!, origin);
      if (url.pathname === '/api/history' && !url.searchParams.has('hop')) {
        res.writeHead(308, { location: `/api/history${url.search}&hop=1` });
        res.end();
      } else if (url.pathname === '/api/history') {
        res.writeHead(302, { location: `/elsewhere/history${url.search}` });
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"status":"success","data":[]}');
      }
    });
    try {
      expect(await createPriceClient({ baseUrl: `${server.url}/api`, apiKey: KEY }).history(q)).toEqual([]);
      expect(server.requests.map((r) => [new URL(r.url, server.url).pathname, r.headers['x-api-key']])).toEqual([
        ['/api/history', KEY],
        ['/api/history', KEY],
        ['/elsewhere/history', undefined],
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('the key is never shown', () => {
  const faults = ['400', '401', '403', '404', '429', '500', '502', '503', 'html', 'reset', 'truncated', 'not-json', 'slow'];

  it.each(faults)('fault %s: neither the error (and its causes) nor any middleware hook holds the key', async (fault) => {
    const { middleware, log } = recorder();
    const prices = client(ctx.stub, { timeoutMs: 100, headers: { 'x-stub-fault': fault, 'x-stub-delay-ms': '1000' } });
    prices.raw.use(middleware);
    const err = await rejectionOf(prices.history(q));
    expect(err).toMatchObject({ code: expect.any(String) });
    expectNoKey(err);
    expect(log.length).toBeGreaterThan(0);
    expect(JSON.stringify(log)).not.toContain(KEY);
    expect(inspect(log, { depth: 20 })).not.toContain(KEY);
    // The requests really carried it: the test would notice if the key had simply not been sent.
    expectKeyOnlyInHeader(ctx.stub);
  });

  it('nor on success, in any hook', async () => {
    const { middleware, log } = recorder();
    const prices = client(ctx.stub);
    prices.raw.use(middleware);
    await prices.history(q);
    await prices.latest();
    expect(log.map((entry) => (entry as { hook: string }).hook)).toEqual(['onRequest', 'onResponse', 'onRequest', 'onResponse']);
    expect(JSON.stringify(log)).not.toContain(KEY);
    expectKeyOnlyInHeader(ctx.stub);
  });

  it('nor in the client object or a middleware onError for a refused connection', async () => {
    const closed = await startServer(() => undefined);
    await closed.close();
    const { middleware, log } = recorder();
    const prices = createPriceClient({ baseUrl: closed.url, apiKey: KEY, retry: false });
    prices.raw.use(middleware);
    const err = await rejectionOf(prices.history(q));
    expectNoKey(err);
    expect(log.some((entry) => (entry as { hook: string }).hook === 'onError')).toBe(true);
    expect(JSON.stringify(log)).not.toContain(KEY);
    expect(inspect(prices, { depth: 10 })).not.toContain(KEY);
    expect(JSON.stringify(prices)).not.toContain(KEY);
  });

  it('nor when a custom fetch attaches the keyed request to its error', async () => {
    const { middleware, log } = recorder();
    const prices = createPriceClient({
      baseUrl: ctx.stub.url,
      apiKey: KEY,
      retry: false,
      fetch: async (request) => {
        throw Object.assign(new Error(`could not send with key ${request.headers.get('x-api-key')}`), {
          request,
          code: 'E_CUSTOM',
          cause: Object.assign(new Error('inner'), { request }),
        });
      },
    });
    prices.raw.use(middleware);
    const err = await rejectionOf(prices.history(q));
    expect(err).toMatchObject({ code: 'NETWORK_ERROR' });
    expect((err as Error).cause).toMatchObject({ code: 'E_CUSTOM', message: 'could not send with key [REDACTED]' });
    expectNoKey(err);
    expect(JSON.stringify(log)).not.toContain(KEY);
  });

  it('nor when a server echoes the key in an error body or a body that is not JSON', async () => {
    const echo = await startServer((req, res) => {
      const key = String(req.headers['x-api-key']);
      if (req.url!.startsWith('/history')) {
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'invalid_api_key', message: `key ${key} is not valid`, detail: { echoed: [key] } }));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`not json: your key is ${key}`);
      }
    });
    let prices: PriceClient | undefined;
    try {
      prices = createPriceClient({ baseUrl: echo.url, apiKey: KEY, retry: false });
      const httpError = await rejectionOf(prices.history(q));
      expect(httpError).toMatchObject({ status: 403, body: { message: 'key [REDACTED] is not valid', detail: { echoed: ['[REDACTED]'] } } });
      expectNoKey(httpError);
      const parseError = await rejectionOf(prices.latest());
      expect(parseError).toMatchObject({ code: 'RESPONSE_PARSE_ERROR', bodySnippet: 'not json: your key is [REDACTED]' });
      expectNoKey(parseError);
      expect(echo.requests.every((r) => r.headers['x-api-key'] === KEY)).toBe(true);
    } finally {
      await echo.close();
    }
  });
});

describe('with and without raw middleware', () => {
  const withMiddleware = [
    ['without middleware', false],
    ['with middleware', true],
  ] as const;

  it.each(withMiddleware)('%s, a custom fetch is called with one Request, keyed only under the base URL', async (_name, middleware) => {
    const seen: [string, string | null][] = [];
    const prices = createPriceClient({
      baseUrl: `${ctx.stub.url}/`,
      apiKey: KEY,
      fetch: (request) => {
        expect(request).toBeInstanceOf(Request);
        seen.push([new URL(request.url).pathname, request.headers.get('x-api-key')]);
        return fetch(request);
      },
    });
    if (middleware) prices.raw.use(recorder().middleware);
    await prices.history(q);
    await prices.latest();
    const other = await startServer((_req, res) => res.end('{}'));
    try {
      await prices.raw.GET('/latest', { baseUrl: other.url });
    } finally {
      await other.close();
    }
    expect(seen).toEqual([
      ['/history', KEY],
      ['/latest', KEY],
      ['/latest', null],
    ]);
    expectKeyOnlyInHeader(ctx.stub);
  });

  it.each(withMiddleware)('%s, a redirect within the base URL keeps the key and one to another origin is not followed', async (_name, middleware) => {
    const target = await startServer((_req, res) => res.end('{"status":"success","data":[]}'));
    const redirector = await startServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      res.writeHead(url.searchParams.has('hop') ? 302 : 301, { location: url.searchParams.has('hop') ? `${target.url}${req.url}` : `${req.url}&hop=1` });
      res.end();
    });
    try {
      const { middleware: m, log } = recorder();
      const prices = createPriceClient({ baseUrl: redirector.url, apiKey: KEY, retry: false });
      if (middleware) prices.raw.use(m);
      const err = await rejectionOf(prices.history(q));
      expect(err).toMatchObject({ code: 'HTTP_ERROR', status: 302 });
      expect(redirector.requests.map((r) => r.headers['x-api-key'])).toEqual([KEY, KEY]);
      expect(target.requests).toHaveLength(0);
      expect(JSON.stringify(log)).not.toContain(KEY);
    } finally {
      await redirector.close();
      await target.close();
    }
  });

  it.each(withMiddleware)('%s, a custom fetch that attaches the keyed request to its error leaks nothing', async (_name, middleware) => {
    const prices = createPriceClient({
      baseUrl: ctx.stub.url,
      apiKey: KEY,
      retry: false,
      fetch: async (request) => {
        throw Object.assign(new Error(`could not send with key ${request.headers.get('x-api-key')}`), { request, code: 'E_CUSTOM' });
      },
    });
    if (middleware) prices.raw.use(recorder().middleware);
    const err = await rejectionOf(prices.history(q));
    expect(err).toMatchObject({ code: 'NETWORK_ERROR', cause: { code: 'E_CUSTOM', message: 'could not send with key [REDACTED]' } });
    expectNoKey(err);
  });

  it.each(withMiddleware)('%s, errors of every kind hold no key', async (_name, middleware) => {
    for (const fault of ['401', '503', 'reset', 'truncated', 'not-json', 'slow']) {
      ctx.stub.reset();
      const prices = client(ctx.stub, { timeoutMs: 100, retry: false, headers: { 'x-stub-fault': fault, 'x-stub-delay-ms': '1000' } });
      if (middleware) prices.raw.use(recorder().middleware);
      const err = await rejectionOf(prices.history(q));
      expect(err).toMatchObject({ code: expect.any(String) });
      expectNoKey(err);
      expectKeyOnlyInHeader(ctx.stub);
    }
  });
});

describe('the logging hook', () => {
  it('the client has no other outlets than errors, raw middleware and onAttempt', () => {
    expect(Object.keys(client(ctx.stub)).sort()).toEqual(['baseUrls', 'history', 'historyRange', 'latest', 'raw']);
  });

  it('takes no onAttempt, rateLimit or list of base URLs: the routing of the node client is not bundled', () => {
    for (const [options, parameter] of [
      [{ onAttempt: () => undefined }, 'onAttempt'],
      [{ rateLimit: { requestsPerSecond: 1 } }, 'rateLimit'],
      [{ baseUrl: [ctx.stub.url, ctx.stub.url] }, 'baseUrl'],
    ] as const) {
      expect(() => createPriceClient({ apiKey: KEY, ...(options as object) })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', parameter }));
    }
  });
});
