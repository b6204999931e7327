/**
 * `HttpError.retryAfterMs` and `HttpError.headers`, over loopback from a scripted server, through both
 * clients: the wait the server asked for (which retries and node rests honour), and the response headers
 * with every header that could carry a secret redacted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeClient, HttpError } from '@x/node-client';
import { createPriceClient } from '@x/price-client';
import { startScriptedServer, type ScriptedServer } from '@x-tools/scripted-server';

const KEY = 'price-key-0123456789';

let server: ScriptedServer;
/** Per path (special addresses `0x9`..`0xe`: one spelling in every form), the status and headers to answer; 200 otherwise. */
const script = new Map<string, { status: number; headers: Record<string, string | string[]>; body?: string }>();
beforeAll(async () => {
  server = await startScriptedServer((req, res, { url }) => {
    const answer = script.get(url.pathname);
    if (answer === undefined) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"sequence_number":1,"authentication_key":"0x1"}');
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body ?? '{"message":"no"}');
  });
});
afterAll(() => server.close());

const noRetry = { retry: false as const };
const rejection = async (p: Promise<unknown>): Promise<HttpError> => {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    return err as HttpError;
  }
  throw new Error('expected a rejection');
};

describe('HttpError.retryAfterMs', () => {
  it('is the Retry-After delay in ms', async () => {
    script.set('/rpc/v2/accounts/0x9', { status: 429, headers: { 'retry-after': '7' } });
    const err = await rejection(createNodeClient({ baseUrl: server.url, ...noRetry }).v2.getAccount('0x9'));
    expect(err.retryAfterMs).toBe(7000);
  });

  it('is the time to a Retry-After date, from the answer', async () => {
    const at = new Date(Date.now() + 60_000).toUTCString();
    script.set('/rpc/v2/accounts/0xa', { status: 503, headers: { 'retry-after': at } });
    const err = await rejection(createNodeClient({ baseUrl: server.url, ...noRetry }).v2.getAccount('0xa'));
    expect(err.retryAfterMs).toBeGreaterThan(55_000);
    expect(err.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('is undefined without a Retry-After (or an unreadable one)', async () => {
    script.set('/rpc/v2/accounts/0xb', { status: 404, headers: {} });
    script.set('/rpc/v2/accounts/0xc', { status: 502, headers: { 'retry-after': 'soon-ish' } });
    const node = createNodeClient({ baseUrl: server.url, ...noRetry });
    expect((await rejection(node.v2.getAccount('0xb'))).retryAfterMs).toBeUndefined();
    expect((await rejection(node.v2.getAccount('0xc'))).retryAfterMs).toBeUndefined();
  });

  it('is honoured by retries: a wait longer than retry.maxDelayMs ends them with the error', async () => {
    script.set('/latest', { status: 503, headers: { 'retry-after': '120' } });
    const sleeps: number[] = [];
    const prices = createPriceClient({ baseUrl: server.url, apiKey: KEY, retry: { attempts: 3, maxDelayMs: 1000, sleep: async (ms) => void sleeps.push(ms) } });
    const err = await rejection(prices.latest({ pair: 'btc_usdt' }));
    expect(err.retryAfterMs).toBe(120_000);
    expect(sleeps).toEqual([]);
    script.set('/latest', { status: 503, headers: { 'retry-after': '0' } });
    await rejection(prices.latest({ pair: 'btc_usdt' }));
    expect(sleeps).toHaveLength(2);
    script.delete('/latest');
  });

  it('rests a node for its Retry-After: the next call goes to the other node', async () => {
    const dead = await startScriptedServer((_req, res) => void res.writeHead(429, { 'retry-after': '30', 'content-type': 'application/json' }).end('{}'));
    try {
      const node = createNodeClient({ baseUrl: [dead.url, server.url], retry: { attempts: 1 } });
      await node.v2.getAccount('0x1');
      await node.v2.getAccount('0x1');
      expect(dead.requests).toHaveLength(1);
    } finally {
      await dead.close();
    }
  });
});

describe('HttpError.headers', () => {
  it('holds the response headers, names lowercased', async () => {
    script.set('/rpc/v2/accounts/0xd', { status: 418, headers: { 'X-Request-Id': 'abc-1', 'Retry-After': '3' } });
    const err = await rejection(createNodeClient({ baseUrl: server.url, ...noRetry }).v2.getAccount('0xd'));
    expect(err.headers['x-request-id']).toBe('abc-1');
    expect(err.headers['retry-after']).toBe('3');
    expect(err.headers['content-type']).toBe('application/json');
  });

  it('redacts cookies, authorization, keys, tokens and other secret-named headers', async () => {
    const secrets = {
      'set-cookie': ['session=s3cr3t; HttpOnly', 'other=s3cr3t'],
      authorization: 'Bearer s3cr3t',
      'proxy-authenticate': 'Basic realm=s3cr3t',
      'x-api-key': 's3cr3t',
      'x-auth-token': 's3cr3t',
      'x-client-secret': 's3cr3t',
      'x-signature': 's3cr3t',
      'x-password': 's3cr3t',
    };
    script.set('/rpc/v2/accounts/0xe', { status: 401, headers: { ...secrets, 'x-trace': 'visible' } });
    const err = await rejection(createNodeClient({ baseUrl: server.url, ...noRetry }).v2.getAccount('0xe'));
    for (const name of Object.keys(secrets)) expect(err.headers[name], name).toBe('[REDACTED]');
    expect(err.headers['x-trace']).toBe('visible');
    expect(JSON.stringify(err)).not.toContain('s3cr3t');
    expect(JSON.stringify(err.headers)).not.toContain('s3cr3t');
  });

  it("the price client: a header echoing the API key is redacted, whatever its name", async () => {
    script.set('/latest', { status: 400, headers: { 'x-echo': `you sent ${KEY}`, 'x-api-key': KEY } });
    const err = await rejection(createPriceClient({ baseUrl: server.url, apiKey: KEY, ...noRetry }).latest({ pair: 'btc_usdt' }));
    expect(err.headers['x-api-key']).toBe('[REDACTED]');
    expect(err.headers['x-echo']).not.toContain(KEY);
    expect(JSON.stringify(err)).not.toContain(KEY);
    script.delete('/latest');
  });

  it('is empty for an HttpError built without headers', () => {
    expect(new HttpError({ status: 500, body: undefined, method: 'GET', url: 'http://x/' }).headers).toEqual({});
  });
});
