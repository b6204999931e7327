import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ClientError,
  createPriceClient,
  HttpError,
  isNotFound,
  isUnauthorized,
  NetworkError,
  ResponseParseError,
  ResponseShapeError,
  TimeoutError,
  type RetryOptions,
} from '@x/price-client';
import { startSilentServer } from '@x-tools/scripted-server';
import { rejectionOf, usePriceStub } from '@x-tools/test-helpers';
import { client, DAY, KEY, NOW, startServer } from './helpers.ts';

const ctx = usePriceStub({ apiKey: KEY });
beforeEach(() => ctx.stub.reset());

const q = { pair: 'btc_usdt', start: NOW - DAY, end: NOW, resolution: 3600 };

/** Retry hooks that record the delays instead of waiting them. */
function recordingRetry(extra: RetryOptions = {}): { retry: RetryOptions; delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    retry: {
      sleep: async (ms) => {
        delays.push(ms);
      },
      random: () => 0.5,
      now: () => NOW,
      ...extra,
    },
  };
}

describe('HTTP errors', () => {
  it.each([400, 401, 403, 404])('%d is an HttpError with the body, not retried', async (status) => {
    const { retry, delays } = recordingRetry();
    const err = await rejectionOf(client(ctx.stub, { retry, headers: { 'x-stub-fault': String(status) } }).history(q));
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toBeInstanceOf(ClientError);
    expect(err).toMatchObject({ code: 'HTTP_ERROR', status, method: 'GET', body: { error: 'stub_fault' } });
    expect((err as HttpError).url).toBe(`${ctx.stub.url}${ctx.stub.requests[0]!.url}`);
    expect(isNotFound(err)).toBe(status === 404);
    expect(isUnauthorized(err)).toBe(status === 401 || status === 403);
    expect(ctx.stub.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it("keeps the service's own error bodies: an unknown pair is a 404, a too large range a 400", async () => {
    const prices = client(ctx.stub);
    const notFound = await rejectionOf(prices.history({ ...q, pair: 'doge_usdt' }));
    expect(isNotFound(notFound)).toBe(true);
    expect(notFound).toMatchObject({ status: 404, body: { status: 'error', error: 'pair_not_found' } });
    const tooLarge = await rejectionOf(prices.history({ ...q, start: NOW - 20 * DAY, resolution: 60 }));
    expect(tooLarge).toMatchObject({ status: 400, body: { error: 'range_too_large' } });
    expect(isNotFound(tooLarge)).toBe(false);
  });

  it('a wrong key is a 403 that isUnauthorized tells, not retried, naming no key (401 and 403 of any cause: above)', async () => {
    const wrong = await rejectionOf(createPriceClient({ baseUrl: ctx.stub.url, apiKey: 'not-the-key' }).history(q));
    expect(wrong).toMatchObject({ status: 403, body: { error: 'invalid_api_key' } });
    expect(isUnauthorized(wrong)).toBe(true);
    expect((wrong as Error).message).not.toContain('not-the-key');
    expect(ctx.stub.requests).toHaveLength(1);
    // Not an HttpError, or another status: false.
    expect([isUnauthorized(new Error('403')), isUnauthorized({ status: 403 }), isUnauthorized(undefined)]).toEqual([false, false, false]);
    expect(isUnauthorized(await rejectionOf(client(ctx.stub).history({ ...q, pair: 'doge_usdt' })))).toBe(false);
  });

  it('an HTML error page (502) is an HttpError whose body is the text', async () => {
    const err = await rejectionOf(client(ctx.stub, { retry: false, headers: { 'x-stub-fault': 'html' } }).history(q));
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(502);
    expect((err as HttpError).body).toEqual(expect.stringContaining('<h1>502 Bad Gateway</h1>'));
  });

  it('a 500 with a plain-text body keeps the text', async () => {
    // The document does not show error bodies: whatever the shape, it ends up in `body`.
    const server = await startServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('internal trouble');
    });
    try {
      const err = await rejectionOf(createPriceClient({ baseUrl: server.url, apiKey: 'k-123456789', retry: false }).history(q));
      expect(err).toMatchObject({ code: 'HTTP_ERROR', status: 500, body: 'internal trouble' });
    } finally {
      await server.close();
    }
  });
});

describe('retries', () => {
  it.each([
    ['429', [1000, 1000]], // Retry-After: 1 from the stub
    ['503', [1000, 1000]],
    ['500', [125, 250]], // full jitter at random() = 0.5 over 250 ms, then 500 ms
    ['502', [125, 250]],
    ['html', [125, 250]], // a 502 page
  ])('%s is retried (3 attempts in all) and then thrown', async (fault, expectedDelays) => {
    const { retry, delays } = recordingRetry();
    const err = await rejectionOf(client(ctx.stub, { retry, headers: { 'x-stub-fault': fault } }).history(q));
    expect(err).toBeInstanceOf(HttpError);
    expect(ctx.stub.requests).toHaveLength(3);
    expect(delays).toEqual(expectedDelays);
  });

  it('succeeds when a fault clears before the attempts run out', async () => {
    const { retry, delays } = recordingRetry();
    const prices = client(ctx.stub, { retry, headers: { 'x-stub-fault': '429', 'x-stub-fault-times': '2' } });
    expect(await prices.history(q)).toHaveLength(24);
    expect(ctx.stub.requests).toHaveLength(3);
    expect(delays).toEqual([1000, 1000]);
  });

  it('honours Retry-After in seconds and as an HTTP date', async () => {
    for (const [value, expected] of [
      ['3', 3000],
      [new Date(NOW + 7000).toUTCString(), 7000],
    ] as const) {
      ctx.stub.reset();
      const { retry, delays } = recordingRetry();
      const prices = client(ctx.stub, { retry, headers: { 'x-stub-fault': '503', 'x-stub-fault-times': '1', 'x-stub-retry-after': value } });
      await prices.history(q);
      expect(delays).toEqual([expected]);
    }
  });

  it('retries network errors (reset connections)', async () => {
    const { retry, delays } = recordingRetry();
    const prices = client(ctx.stub, { retry, headers: { 'x-stub-fault': 'reset', 'x-stub-fault-times': '2' } });
    expect(await prices.history(q)).toHaveLength(24);
    expect(delays).toEqual([125, 250]);
  });

  it('stops after `attempts`, and makes one attempt with retry: false', async () => {
    const { retry } = recordingRetry({ attempts: 5 });
    await rejectionOf(client(ctx.stub, { retry, headers: { 'x-stub-fault': '500' } }).history(q));
    expect(ctx.stub.requests).toHaveLength(5);
    ctx.stub.reset();
    await rejectionOf(client(ctx.stub, { retry: false, headers: { 'x-stub-fault': '500' } }).history(q));
    expect(ctx.stub.requests).toHaveLength(1);
  });

  it('does not retry a 400, nor a body that is not JSON', async () => {
    for (const fault of ['400', 'not-json', 'truncated']) {
      ctx.stub.reset();
      const { retry, delays } = recordingRetry();
      await rejectionOf(client(ctx.stub, { retry, headers: { 'x-stub-fault': fault } }).history(q));
      expect(ctx.stub.requests).toHaveLength(1);
      expect(delays).toEqual([]);
    }
  });
});

describe('broken responses and connections', () => {
  it('reset: a NetworkError with the cause, after the retries', async () => {
    const err = await rejectionOf(client(ctx.stub, { headers: { 'x-stub-fault': 'reset' } }).history(q));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ code: 'NETWORK_ERROR', method: 'GET' });
    expect((err as NetworkError).cause).toBeInstanceOf(Error);
    expect(ctx.stub.requests).toHaveLength(3);
  });

  it('a refused connection is a NetworkError', async () => {
    const server = await startServer(() => undefined);
    const url = server.url;
    await server.close();
    const err = await rejectionOf(createPriceClient({ baseUrl: url, apiKey: 'k-123456789', retry: false }).history(q));
    expect(err).toBeInstanceOf(NetworkError);
  });

  it('truncated: a ResponseParseError', async () => {
    const err = await rejectionOf(client(ctx.stub, { headers: { 'x-stub-fault': 'truncated' } }).history(q));
    expect(err).toBeInstanceOf(ResponseParseError);
    expect(err).toMatchObject({ code: 'RESPONSE_PARSE_ERROR', status: 200 });
  });

  it('not-json: a ResponseParseError with the start of the body', async () => {
    const err = await rejectionOf(client(ctx.stub, { headers: { 'x-stub-fault': 'not-json' } }).latest());
    expect(err).toBeInstanceOf(ResponseParseError);
    expect((err as ResponseParseError).bodySnippet).toMatch(/^upstream answered with plain text/);
  });

  it('a JSON body without candles: a ResponseShapeError at /data (as the node client), not a TypeError', async () => {
    const prices = client(ctx.stub, { fetch: async () => Response.json({ status: 'error', message: 'rate limited' }) });
    const err = await rejectionOf(prices.history(q));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err).toBeInstanceOf(ClientError);
    expect(err).toMatchObject({ code: 'RESPONSE_SHAPE_ERROR', operationId: 'getHistory', path: '/data' });
    expect((err as Error).message).toBe("Response of getHistory at '/data': expected an array of candles");
  });

  it.each([
    [null, '/data'],
    [[1, 2], '/data'],
    [{ data: 'x' }, '/data'],
    [{ data: [{ timestamp: 1 }, { timestamp: '2' }] }, '/data/1/timestamp'],
    [{ data: [{ timestamp: 1 }, null] }, '/data/1/timestamp'],
    [{ data: [{ timestamp: 1.5 }] }, '/data/0/timestamp'],
  ])('malformed history %j: a ResponseShapeError at %s', async (body, path) => {
    const prices = client(ctx.stub, { retry: false, fetch: async () => Response.json(body) });
    const err = await rejectionOf(prices.history(q));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err).toMatchObject({ code: 'RESPONSE_SHAPE_ERROR', operationId: 'getHistory', path });
  });

  it('a key echoed in a malformed body never reaches the error', async () => {
    const prices = client(ctx.stub, { apiKey: 'sekret-key-123', fetch: async () => Response.json({ echo: 'sekret-key-123' }) });
    const err = await rejectionOf(prices.history(q));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(JSON.stringify(err) + String((err as Error).stack)).not.toContain('sekret-key-123');
  });

  it('slow: a TimeoutError per attempt, retried', async () => {
    const { retry, delays } = recordingRetry();
    const prices = client(ctx.stub, { timeoutMs: 50, retry, headers: { 'x-stub-fault': 'slow', 'x-stub-delay-ms': '2000' } });
    const err = await rejectionOf(prices.history(q));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ code: 'TIMEOUT', timeoutMs: 50 });
    expect(ctx.stub.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it('slow within the time limit: the answer', async () => {
    const prices = client(ctx.stub, { headers: { 'x-stub-fault': 'slow', 'x-stub-delay-ms': '30' } });
    expect(await prices.history(q)).toHaveLength(24);
  });
});

describe('what a timeout does to its request (the price client always sends a Request)', () => {
  it('every timeout aborts its request, the first one included, keyed or not', async () => {
    const server = await startSilentServer();
    const { closed } = server;
    try {
      const prices = createPriceClient({ baseUrl: server.url, apiKey: 'k', retry: false, timeoutMs: 100 });
      await expect(prices.latest()).rejects.toBeInstanceOf(TimeoutError);
      await vi.waitFor(() => expect(closed).toEqual([true]), { timeout: 2000 });
      await expect(prices.history(q)).rejects.toBeInstanceOf(TimeoutError);
      await vi.waitFor(() => expect(closed).toEqual([true, true]), { timeout: 2000 });
    } finally {
      await server.close();
    }
  });
});

describe('abort', () => {
  it('an aborted signal rejects with its reason before any request', async () => {
    const reason = new Error('cancelled');
    await expect(client(ctx.stub).history({ ...q, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    await expect(client(ctx.stub).latest({ signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(ctx.stub.requests).toHaveLength(0);
  });

  it.each([null, 'stop', 0])('a reason that is no object (%j) is the rejection too, not a TypeError of reading it', async (reason) => {
    await expect(client(ctx.stub).history({ ...q, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  it('an abort during a slow answer rejects with the reason at once', async () => {
    const controller = new AbortController();
    const reason = new Error('navigated away');
    const prices = client(ctx.stub, { headers: { 'x-stub-fault': 'slow', 'x-stub-delay-ms': '5000' } });
    const started = Date.now();
    const pending = prices.history({ ...q, signal: controller.signal });
    setTimeout(() => controller.abort(reason), 30);
    await expect(pending).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('an abort while waiting to retry rejects with the reason and sends no retry', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    // Real sleep: the stub asks for Retry-After: 1 (1 s); the abort comes first.
    const prices = client(ctx.stub, { retry: {}, headers: { 'x-stub-fault': '429' } });
    const pending = prices.history({ ...q, signal: controller.signal });
    setTimeout(() => controller.abort(reason), 50);
    await expect(pending).rejects.toBe(reason);
    expect(ctx.stub.requests).toHaveLength(1);
  });
});
