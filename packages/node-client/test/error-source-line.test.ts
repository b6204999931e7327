/**
 * An uncaught error prints its stack's first frame as its source line: for a 404 that line must make an
 * `HttpError`, not the line that chooses between `HistoryPrunedError` and `HttpError` (a 404 would read as
 * if a 410 happened). Over a loopback server of the test's own, in source (vitest maps the frames).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { createNodeClient, HistoryPrunedError, HttpError } from '@x/node-client';
import { rejectionOf } from '@x-tools/test-helpers';

let server: Server;
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The source line of an error's first stack frame. */
function sourceLine(err: Error): string {
  const frame = /\((?:file:\/\/)?(\/[^():]+):(\d+):\d+\)/.exec(err.stack!.split('\n').find((l) => l.trim().startsWith('at '))!);
  const [, file, line] = frame!;
  return readFileSync(file!.startsWith('/@fs') ? file!.slice(4) : fileURLToPath(`file://${file!}`), 'utf8').split('\n')[Number(line) - 1]!;
}

it.each([
  [404, HttpError, /new HttpError\(/],
  [410, HistoryPrunedError, /new HistoryPrunedError\(/],
])('HTTP %i: the first frame is the line that makes its own class', async (status, errorClass, line) => {
  server = createServer((_req, res) => res.writeHead(status, { 'content-type': 'application/json', 'x-supra-oldest-block': '5' }).end('{"message":"no"}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const err = await rejectionOf(createNodeClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, retry: false }).v3.getAccount('0x1'));
  expect(err).toBeInstanceOf(errorClass);
  const text = sourceLine(err as Error);
  expect(text).toMatch(line);
  if (status === 404) expect(text).not.toMatch(/HistoryPrunedError/);
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
