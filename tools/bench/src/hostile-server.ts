/**
 * The hostile node of benchmark 8, in a process of its own (forked by hostile.ts), so that writing an
 * endless or gzip body costs the client's process nothing it would measure. It answers by path:
 *
 * - `/ok/...`: an account, as a node answers it;
 * - `/letters/...`: a 400 whose message is 100,000 letters; `/digits/...`: a 429 "try again in" and
 *   100,000 digits;
 * - `/endless/...`: a 200 whose body never ends; `/gzip/...`: a 200 gzip body that inflates without end;
 * - `/big-cursor/...`: a module page whose cursor is 100,000 characters.
 *
 * Protocol (IPC): it sends `{ port }` once listening, and exits when its parent goes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';

const N = 100_000;
const json = (status: number, body: unknown): [number, Record<string, string>, string] => [status, { 'content-type': 'application/json' }, JSON.stringify(body)];
const endless = (chunk: Buffer): Readable => new Readable({ read() { this.push(chunk); } });

const server = createServer((req, res) => {
  const kind = (req.url ?? '/').split('/')[1];
  if (kind === 'endless') {
    res.writeHead(200, { 'content-type': 'application/json' });
    endless(Buffer.alloc(64 * 1024, 0x20)).pipe(res);
    return;
  }
  if (kind === 'gzip') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    endless(Buffer.alloc(1024 * 1024, 0x20)).pipe(createGzip()).pipe(res);
    return;
  }
  const [status, headers, body] =
    kind === 'letters' ? json(400, { message: 'a'.repeat(N) })
    : kind === 'digits' ? json(429, { message: `Too many requests. Please try again in ${'1'.repeat(N)}` })
    : kind === 'big-cursor' ? json(200, { modules: [{ abi: {} }], cursor: 'c'.repeat(N) })
    : json(200, { sequence_number: 7, authentication_key: `0x${'ab'.repeat(32)}` });
  res.writeHead(status, headers).end(body);
});

server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('disconnect', () => process.exit(0));
