import { inspect } from 'node:util';
import { beforeEach, describe, expect, it } from 'vitest';
import { createPriceClient, HttpError, type PriceClient } from '@x/price-client';
import type { PriceStubHandle } from '@x/testing';
import { rejectionOf, usePriceStub } from '@x-tools/test-helpers';
import { client, DAY, expectNoKey, KEY, NOW, startServer } from './helpers.ts';

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

  it('a custom fetch is called with one Request per attempt, keyed only under the base URL', async () => {
    const server = await startServer((req, res) => {
      if (req.url!.startsWith('/api/')) {
        res.writeHead(302, { location: `/elsewhere${req.url!.slice(4)}` });
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"status":"success","data":[]}');
      }
    });
    try {
      const seen: [string, string | null][] = [];
      const prices = createPriceClient({
        baseUrl: `${server.url}/api/`,
        apiKey: KEY,
        fetch: (request) => {
          expect(request).toBeInstanceOf(Request);
          seen.push([new URL(request.url).pathname, request.headers.get('x-api-key')]);
          return fetch(request);
        },
      });
      expect(await prices.history(q)).toEqual([]);
      // The hop out of the base path goes through the custom fetch too, without the key.
      expect(seen).toEqual([
        ['/api/history', KEY],
        ['/elsewhere/history', null],
      ]);
      expect(server.requests.map((r) => r.headers['x-api-key'])).toEqual([KEY, undefined]);
    } finally {
      await server.close();
    }
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

  it.each(faults)('fault %s: the error (and its causes) does not hold the key', async (fault) => {
    const prices = client(ctx.stub, { timeoutMs: 100, headers: { 'x-stub-fault': fault, 'x-stub-delay-ms': '1000' } });
    const err = await rejectionOf(prices.history(q));
    expect(err).toMatchObject({ code: expect.any(String) });
    expectNoKey(err);
    // The requests really carried it: the test would notice if the key had simply not been sent.
    expectKeyOnlyInHeader(ctx.stub);
  });

  it('nor in the client object or the error of a refused connection', async () => {
    const closed = await startServer(() => undefined);
    await closed.close();
    const prices = createPriceClient({ baseUrl: closed.url, apiKey: KEY, retry: false });
    const err = await rejectionOf(prices.history(q));
    expect(err).toMatchObject({ code: 'NETWORK_ERROR' });
    expectNoKey(err);
    expect(inspect(prices, { depth: 10 })).not.toContain(KEY);
    expect(JSON.stringify(prices)).not.toContain(KEY);
  });

  it('nor when a custom fetch attaches the keyed request to its error', async () => {
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
    const err = await rejectionOf(prices.history(q));
    expect(err).toMatchObject({ code: 'NETWORK_ERROR' });
    expect((err as Error).cause).toMatchObject({ code: 'E_CUSTOM', message: 'could not send with key [REDACTED]' });
    expectNoKey(err);
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

  it('nor a key given with spaces at its ends: it is sent without them, and the echo of what was sent is redacted', async () => {
    const echo = await startServer((req, res) => {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `key ${String(req.headers['x-api-key'])} is not valid` }));
    });
    try {
      const err = await rejectionOf(createPriceClient({ baseUrl: echo.url, apiKey: ` ${KEY}\t`, retry: false }).latest());
      expect(err).toMatchObject({ status: 403, body: { message: 'key [REDACTED] is not valid' } });
      expectNoKey(err);
      expect(echo.requests[0]!.headers['x-api-key']).toBe(KEY);
    } finally {
      await echo.close();
    }
  });
});

describe('redirects and failures', () => {
  it('a redirect within the base URL keeps the key and one to another origin is not followed', async () => {
    const target = await startServer((_req, res) => res.end('{"status":"success","data":[]}'));
    const redirector = await startServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      res.writeHead(url.searchParams.has('hop') ? 302 : 301, { location: url.searchParams.has('hop') ? `${target.url}${req.url}` : `${req.url}&hop=1` });
      res.end();
    });
    try {
      const prices = createPriceClient({ baseUrl: redirector.url, apiKey: KEY, retry: false });
      const err = await rejectionOf(prices.history(q));
      expect(err).toMatchObject({ code: 'HTTP_ERROR', status: 302 });
      expect(redirector.requests.map((r) => r.headers['x-api-key'])).toEqual([KEY, KEY]);
      expect(target.requests).toHaveLength(0);
      expectNoKey(err);
    } finally {
      await redirector.close();
      await target.close();
    }
  });

  it('errors of every kind hold no key, without retries', async () => {
    for (const fault of ['401', '503', 'reset', 'truncated', 'not-json', 'slow']) {
      ctx.stub.reset();
      const prices = client(ctx.stub, { timeoutMs: 100, retry: false, headers: { 'x-stub-fault': fault, 'x-stub-delay-ms': '1000' } });
      const err = await rejectionOf(prices.history(q));
      expect(err).toMatchObject({ code: expect.any(String) });
      expectNoKey(err);
      expectKeyOnlyInHeader(ctx.stub);
    }
  });
});

describe('the logging hook', () => {
  it('the client has no outlets but errors and the fetch option: no hook, no raw client', () => {
    expect(Object.keys(client(ctx.stub)).sort()).toEqual(['baseUrls', 'history', 'historyRange', 'latest', 'watchCandles']);
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
