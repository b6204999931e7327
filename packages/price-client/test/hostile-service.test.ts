/**
 * A price service (or something answering in its place) that wants the key, the process's memory or
 * its event loop, over loopback servers of the test's own: paths that leave the base URL once a server
 * decodes them, redirects within and out of the origin with the caller's credentials in `headers`,
 * bodies without end, error text built to make regular expressions backtrack, and keys or headers with
 * line breaks.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createPriceClient, HttpError, InvalidArgumentError, ResponseTooLargeError } from '@x/price-client';
import { rejectionOf } from '@x-tools/test-helpers';
import { DAY, KEY, NOW, startServer } from './helpers.ts';

const q = { pair: 'btc_usdt', start: NOW - DAY, end: NOW, resolution: 3600 };
const EMPTY = '{"status":"success","data":[]}';

describe('the key goes only under the base path, read as a server decodes it', () => {
  it.each([
    ['/..%2fother/history'],
    ['/..%2Fother/history'],
    ['/%2e%2e/other/history'],
    ['/..%5cother/history'],
  ])('a redirect to /api%s goes without the key', async (path) => {
    // The service redirects the keyed request to the path; the hop is sent without the key.
    const server = await startServer((req, res) => (req.url!.startsWith('/api/history') ? res.writeHead(302, { location: `/api${path}` }).end() : res.end('{}')));
    try {
      const prices = createPriceClient({ baseUrl: `${server.url}/api`, apiKey: KEY, retry: false });
      await prices.history(q).catch(() => undefined);
      expect(server.requests).toHaveLength(2);
      expect(server.requests.map((r) => r.headers['x-api-key'])).toEqual([KEY, undefined]);
    } finally {
      await server.close();
    }
  });

  it('a path under the base URL still carries it', async () => {
    const server = await startServer((_req, res) => res.end(EMPTY));
    try {
      await createPriceClient({ baseUrl: `${server.url}/api`, apiKey: KEY }).history(q);
      expect(server.requests[0]!.headers['x-api-key']).toBe(KEY);
    } finally {
      await server.close();
    }
  });
});

describe("the caller's credentials never reach another origin", () => {
  it('a redirect to another origin sends nothing there: not the key, not authorization, not cookie', async () => {
    const other = await startServer((_req, res) => res.end(EMPTY));
    const service = await startServer((req, res) => res.writeHead(308, { location: `${other.url}${req.url}` }).end());
    try {
      const prices = createPriceClient({ baseUrl: service.url, apiKey: KEY, retry: false, headers: { authorization: 'Bearer caller', cookie: 'session=1' } });
      const err = await rejectionOf(prices.history(q));
      expect(err).toBeInstanceOf(HttpError);
      expect(err).toMatchObject({ status: 308 });
      expect(other.requests).toHaveLength(0);
      expect(service.requests[0]!.headers).toMatchObject({ authorization: 'Bearer caller', cookie: 'session=1', 'x-api-key': KEY });
    } finally {
      await service.close();
      await other.close();
    }
  });

  it('a redirect within the origin keeps them', async () => {
    const service = await startServer((req, res, origin) => {
      const url = new URL(req.url!, origin);
      if (url.pathname === '/v2/history') res.end(EMPTY);
      else res.writeHead(302, { location: `/v2${url.pathname}${url.search}` }).end();
    });
    try {
      const prices = createPriceClient({ baseUrl: service.url, apiKey: KEY, headers: { authorization: 'Bearer caller' } });
      expect(await prices.history(q)).toEqual([]);
      expect(service.requests.map((r) => [r.headers.authorization, r.headers['x-api-key']])).toEqual([
        ['Bearer caller', KEY],
        ['Bearer caller', KEY],
      ]);
    } finally {
      await service.close();
    }
  });
});

describe('a response is bounded', () => {
  it('an endless body ends the call with ResponseTooLargeError and releases the connection', async () => {
    let closed = 0;
    const service = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.on('close', () => closed++);
      new Readable({ read() { this.push(Buffer.alloc(64 * 1024, 0x20)); } }).pipe(res);
    });
    try {
      const err = await rejectionOf(createPriceClient({ baseUrl: service.url, apiKey: KEY, retry: false, maxResponseBytes: 256 * 1024 }).latest());
      expect(err).toBeInstanceOf(ResponseTooLargeError);
      expect(err).toMatchObject({ code: 'RESPONSE_TOO_LARGE', limitBytes: 256 * 1024 });
      for (let i = 0; i < 100 && closed === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(closed).toBe(1);
    } finally {
      await service.close();
    }
  });
});

describe('error text built to make regular expressions backtrack', () => {
  // That reading it takes time linear in its length is hostile-service.perf.test.ts's check.
  it('a 400 whose message is 100,000 letters: an error with a short message', async () => {
    const service = await startServer((_req, res) => res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'a'.repeat(100_000) })));
    try {
      const prices = createPriceClient({ baseUrl: service.url, apiKey: KEY, retry: false });
      expect(((await rejectionOf(prices.latest())) as Error).message.length).toBeLessThan(400);
    } finally {
      await service.close();
    }
  });
});

describe('keys and headers with line breaks are refused at creation', () => {
  it.each([
    [{ apiKey: 'key\r\nx-injected: 1' }, 'apiKey'],
    [{ apiKey: 'key\n' }, 'apiKey'],
    [{ apiKey: 'ключ' }, 'apiKey'],
    [{ apiKey: KEY, headers: { authorization: 'Bearer a\r\nb' } }, 'headers'],
  ])('%j: InvalidArgumentError naming %s, without the value', (options, parameter) => {
    let err: unknown;
    try {
      createPriceClient({ baseUrl: 'http://127.0.0.1:1', ...options });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter });
    expect((err as Error).message).not.toContain('key\r');
    expect((err as Error).message).not.toContain('Bearer');
  });
});
