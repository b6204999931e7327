/**
 * A non-2xx answer is an `HttpError` whatever its body: a body cut short keeps the text that arrived
 * (it used to become a `ResponseParseError` that was never retried), and a retryable status is retried.
 * Both clients, over loopback, from a server that writes part of an error body and drops the connection.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeClient, HttpError } from '@x/node-client';
import { createPriceClient } from '@x/price-client';
import { startScriptedServer, type ScriptedServer } from '@x-tools/scripted-server';

const PARTIAL = '{"message":"service unavail';
/** An address in the canonical (long) form the node client sends. */
const long = (hex: string): string => `0x${hex.padStart(64, '0')}`;

/** Writes the head and part of the body of `status`, announcing more, then drops the connection. */
function cutShort(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': '500' });
  res.write(PARTIAL, () => setTimeout(() => res.destroy(), 10));
}

let server: ScriptedServer;
/** Per path: the statuses to answer in turn, cut short, then 200 with a whole body. */
const script = new Map<string, number[]>();
beforeAll(async () => {
  server = await startScriptedServer((req, res, { url }) => {
    const next = script.get(url.pathname)?.shift();
    if (next !== undefined) return cutShort(res, next);
    res.writeHead(200, { 'content-type': 'application/json' }).end(url.pathname.startsWith('/latest') ? '{"data":[]}' : '{"sequence_number":1,"authentication_key":"0x1"}');
  });
});
afterAll(() => server.close());

const node = (attempts: number) => createNodeClient({ baseUrl: server.url, retry: { attempts, sleep: async () => undefined } });
const prices = (attempts: number) => createPriceClient({ baseUrl: server.url, apiKey: 'k', retry: { attempts, sleep: async () => undefined } });

describe('a non-2xx answer whose body is cut short', () => {
  it.each([
    ['node', 404, () => node(3).v2.getAccount('0x404')],
    ['node', 503, () => node(1).v2.getAccount('0x503')],
    ['price', 400, () => prices(3).latest({ pair: 'bad_pair' })],
  ] as const)('%s: HTTP %i is an HttpError that keeps the text that arrived', async (_client, status, call) => {
    const path = status === 400 ? '/latest' : `/rpc/v2/accounts/${long(String(status))}`;
    script.set(path, [status]);
    const err = await call().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ code: 'HTTP_ERROR', status, body: PARTIAL });
    script.delete(path);
  });

  it.each([
    ['node', () => node(3).v2.getAccount('0x5031'), `/rpc/v2/accounts/${long('5031')}`],
    ['price', () => prices(3).latest(), '/latest'],
  ] as const)('%s: a retryable status is retried, and the call succeeds when the server recovers', async (_client, call, path) => {
    script.set(path, [503, 503]);
    const before = server.requests.length;
    await expect(call()).resolves.toBeDefined();
    expect(server.requests.length - before).toBe(3);
  });

  it('retries used up: the last HttpError, with its partial body', async () => {
    script.set(`/rpc/v2/accounts/${long('5032')}`, [503, 503, 503]);
    const err = await node(3).v2.getAccount('0x5032').then(() => undefined, (e: unknown) => e);
    expect(err).toMatchObject({ name: 'HttpError', status: 503, body: PARTIAL });
  });
});
