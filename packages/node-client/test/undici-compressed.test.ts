/**
 * The undici transport reads compressed answers as `http` (fetch) does: gzip, deflate (zlib-wrapped or
 * raw) and br are decoded, the decoded bytes counted against `maxResponseBytes` and the 64 KiB of an error
 * body (a decompression bomb stops at the limit), a corrupt body is the same error. Over servers of the
 * test's own on loopback.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getAccountV3, http, HttpError, ResponseParseError, ResponseTooLargeError } from '@x/node-client';
import { httpUndici } from '@x/node-client/node';
import { rejectionOf } from '@x-tools/test-helpers';

const ADDRESS = `0x${'ab'.repeat(32)}`;
const ACCOUNT = { sequence_number: 7, authentication_key: `0x${'cd'.repeat(32)}` };
const servers: Server[] = [];
/** A loopback server of the test's own; closed after each test. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.closeAllConnections() ?? s.close(resolve))));
});

/** Both transports of `url` with `options`, fetch's first. */
const both = (url: string, options: Parameters<typeof http>[0] = {}): [string, ReturnType<typeof http>][] => [
  ['http', http({ baseUrl: url, ...options })],
  ['httpUndici', httpUndici({ baseUrl: url, ...options })],
];

describe('httpUndici decodes what fetch decodes', () => {
  it.each([
    ['gzip', 'gzip', gzipSync],
    ['x-gzip', 'x-gzip', gzipSync],
    ['deflate (zlib-wrapped)', 'deflate', deflateSync],
    ['deflate (raw)', 'deflate', deflateRawSync],
    ['br', 'br', brotliCompressSync],
  ])('a %s answer to accept-encoding reads as it does over http()', async (_name, coding, compress) => {
    const url = await serve((req, res) => {
      const text = JSON.stringify(ACCOUNT);
      if (req.headers['accept-encoding'] === coding) res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding }).end(compress(text));
      else res.writeHead(200, { 'content-type': 'application/json' }).end(text);
    });
    for (const [name, node] of both(url, { headers: { 'accept-encoding': coding } })) expect(await getAccountV3(node, ADDRESS), name).toEqual(ACCOUNT);
  });

  it('a body coded twice (gzip, then br) is undone in reverse order; an unknown coding is read as sent', async () => {
    const text = JSON.stringify(ACCOUNT);
    const url = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip, br' }).end(brotliCompressSync(gzipSync(text))));
    for (const [name, node] of both(url)) expect(await getAccountV3(node, ADDRESS), name).toEqual(ACCOUNT);
    const plain = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'identity' }).end(text));
    for (const [name, node] of both(plain)) expect(await getAccountV3(node, ADDRESS), name).toEqual(ACCOUNT);
  });

  it('a gzip error answer is an HttpError with the node message, as over http()', async () => {
    const url = await serve((_req, res) => res.writeHead(404, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(JSON.stringify({ message: 'Account not found' }))));
    for (const [name, node] of both(url)) {
      const err = await rejectionOf(getAccountV3(node, ADDRESS));
      expect(err, name).toBeInstanceOf(HttpError);
      expect((err as HttpError).message, name).toContain('Account not found');
    }
  });

  it('a decompression bomb past maxResponseBytes is a ResponseTooLargeError, counted decoded: the rest is never inflated', async () => {
    // 64 MiB of gzip that inflates to 64 GiB: gzip members of 16 MiB of zeros, one after another,
    // against a limit of 1 MiB. What the server got to send says how far the client read.
    const member = gzipSync(Buffer.alloc(16 * 1024 * 1024));
    const total = 64 * 1024 * 1024;
    const sent: number[] = [];
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      let bytes = 0;
      const pump = (): void => {
        while (bytes < total && !res.destroyed) {
          bytes += member.length;
          if (!res.write(member)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.once('close', () => sent.push(bytes));
      pump();
    });
    const node = httpUndici({ baseUrl: url, maxResponseBytes: 1024 * 1024, retry: false });
    const err = await rejectionOf(getAccountV3(node, ADDRESS));
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect((err as ResponseTooLargeError).limitBytes).toBe(1024 * 1024);
    const overFetch = await rejectionOf(getAccountV3(http({ baseUrl: url, maxResponseBytes: 1024 * 1024, retry: false }), ADDRESS));
    expect(overFetch).toBeInstanceOf(ResponseTooLargeError);
    // Both connections closed a small part of the way in (what the sockets' buffers took).
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    for (const bytes of sent) expect(bytes).toBeLessThan(total / 4);
  });

  it('an error answer inflating past 64 KiB keeps its first 64 KiB: the status is the answer', async () => {
    const message = 'x'.repeat(1024 * 1024);
    const url = await serve((_req, res) => res.writeHead(500, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(JSON.stringify({ message }))));
    const err = await rejectionOf(getAccountV3(httpUndici({ baseUrl: url, retry: false }), ADDRESS));
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(500);
  });

  it('a corrupt gzip body is a ResponseParseError, as over http()', async () => {
    const url = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(Buffer.from('not gzip at all')));
    for (const [name, node] of both(url, { retry: false })) expect(await rejectionOf(getAccountV3(node, ADDRESS)), name).toBeInstanceOf(ResponseParseError);
  });
});
