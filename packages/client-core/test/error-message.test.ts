/**
 * The observed node error body `{ "message": string }` (LIVE-SHAPES.md, S3) fills `HttpError.body` and
 * ends its message: short, on one line, the pre-v11.7 `Some("...")` debug text unwrapped, URLs and the
 * price API key redacted. Both clients, over loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeClient, HttpError } from '@x/node-client';
import { createPriceClient } from '@x/price-client';
import { startScriptedServer, type ScriptedServer } from '@x-tools/scripted-server';

let server: ScriptedServer;
/** The error body (JSON) the next request gets, by path. */
const bodies = new Map<string, unknown>();
beforeAll(async () => {
  server = await startScriptedServer((_req, res, { url }) => {
    const body = bodies.get(url.pathname.replace(/^\/rpc\/v2\/accounts\//, ''));
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? { message: 'no script' }));
  });
});
afterAll(() => server.close());

const nodeAt = () => createNodeClient({ baseUrl: server.url, retry: false });

const long = 'x'.repeat(500);
describe('an error body { message }', () => {
  it.each([
    ['0x1', { message: 'Invalid module bytes' }, ': Invalid module bytes'],
    ['0x2', { message: 'Some("Could not deserialize \\"coin\\" module")' }, ': Could not deserialize "coin" module'],
    ['0x3', { message: 'bad\n\trequest   here' }, ': bad request here'],
    ['0x4', { message: 'see https://user:pw@node.example/rpc?api_key=s3cret&count=2 for more' }, ': see https://node.example/rpc?api_key=[REDACTED]&count=2 for more'],
    ['0x5', { message: long }, `: ${'x'.repeat(199)}…`],
  ])('%s: the message ends with the body message', async (address, body, suffix) => {
    bodies.set(address, body);
    const err = await nodeAt().v2.getAccount(address).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    const e = err as HttpError;
    expect(e.code).toBe('HTTP_ERROR');
    expect(e.status).toBe(400);
    expect(e.body).toEqual(body);
    expect(e.message.endsWith(`/rpc/v2/accounts/${address}: HTTP 400${suffix}`), e.message).toBe(true);
  });

  it.each([
    ['0x6', { message: 42 }],
    ['0x7', { message: '   ' }],
    ['0x8', ['message']],
    ['0x9', { error: 'no message field' }],
  ])('%s: other bodies leave the message as it was', async (address, body) => {
    bodies.set(address, body);
    const err = (await nodeAt().v2.getAccount(address).catch((e: unknown) => e)) as HttpError;
    expect(err).toBeInstanceOf(HttpError);
    expect(err.message.endsWith(`/rpc/v2/accounts/${address}: HTTP 400`)).toBe(true);
    expect(err.body).toEqual(body);
  });

  it('never shows the price API key, even when the service echoes it', async () => {
    const prices = createPriceClient({ baseUrl: server.url, apiKey: 'k-secret-123', retry: false });
    bodies.set('/latest', { message: 'unknown key k-secret-123' });
    const err = (await prices.latest({ pair: 'btc_usdt' }).catch((e: unknown) => e)) as HttpError;
    expect(err).toBeInstanceOf(HttpError);
    expect(err.message).not.toContain('k-secret-123');
    expect(JSON.stringify(err.body)).not.toContain('k-secret-123');
    expect(err.message).toContain('unknown key [REDACTED]');
  });
});
