/**
 * x-validate record against hostile servers: one that never answers, one whose body trickles or never
 * ends, and ones that redirect elsewhere, to take the price key or to pass off another origin's answer
 * as the service's. Real loopback servers; `record` is called in-process.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, startSilentServer, type ScriptedServer } from '@x-tools/scripted-server';
import { rejectionOf } from '@x-tools/test-helpers';
import { record } from '../src/cli/record.ts';
import { within } from './helpers.ts';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'x-validate-record-hostile-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A node that answers every request `{}` (record follows no cursor then). */
const emptyNode = () => startScriptedServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));

describe('x-validate record: servers that never finish', () => {
  const servers: ScriptedServer[] = [];
  afterAll(() => Promise.all(servers.map((s) => s.close())));
  const out = () => mkdtempSync(join(tmp, 'rec-'));

  it('ends with an error naming the timeout when the server never answers, and closes the request', async () => {
    const silent = await startSilentServer();
    servers.push(silent);
    const started = performance.now();
    const err = await within(5_000, 'record', rejectionOf(record({ baseUrl: silent.url, address: '0x1', outDir: out(), count: 1, progress: () => {}, timeoutMs: 300 })));
    expect(String(err)).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/rpc\/v1\/accounts\/0x1: no complete answer within 300 ms/);
    expect(performance.now() - started).toBeLessThan(3_000);
    await expect.poll(() => silent.closed).toEqual([true]);
  });

  it('ends with an error naming the timeout when the body trickles forever', async () => {
    const trickle = await startScriptedServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).write('{"a":');
      const timer = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(timer));
    });
    servers.push(trickle);
    const err = await within(5_000, 'record', rejectionOf(record({ baseUrl: trickle.url, address: '0x1', outDir: out(), count: 1, progress: () => {}, timeoutMs: 300 })));
    expect(String(err)).toMatch(/no complete answer within 300 ms/);
  });

  it('stops reading a body past 16 MiB, with an error naming the limit, and writes no recording', async () => {
    let finished = false;
    let closedEarly = false;
    const flood = await startScriptedServer((req, res) => {
      if (!req.url?.endsWith('/rpc/v1/accounts/0x1')) return void res.writeHead(200).end('{}');
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1 << 20, 0x20);
      let sent = 0;
      const pump = (): void => {
        while (sent < 64) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        finished = true;
        res.end();
      };
      res.on('close', () => {
        closedEarly = !finished;
      });
      pump();
    });
    servers.push(flood);
    const dir = out();
    const err = await within(10_000, 'record', rejectionOf(record({ baseUrl: flood.url, address: '0x1', outDir: dir, count: 1, progress: () => {} })));
    expect(String(err)).toMatch(/larger than 16 MiB \(16777216 bytes/);
    await expect.poll(() => closedEarly).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('x-validate record: redirects and the price key', () => {
  const KEY = 'k-secret-1234';
  const servers: ScriptedServer[] = [];
  let node: ScriptedServer;
  let elsewhere: ScriptedServer;
  beforeAll(async () => {
    node = await emptyNode();
    elsewhere = await emptyNode();
    servers.push(node, elsewhere);
  });
  afterAll(() => Promise.all(servers.map((s) => s.close())));
  const keyed = (s: ScriptedServer, path: string) => s.requests.filter((r) => r.url.startsWith(path)).map((r) => r.headers['x-api-key']);
  const priceServer = async (handler: (path: string, res: ServerResponse, origin: string) => void) => {
    const s = await startScriptedServer((_req, res, { url, origin }) => handler(url.pathname, res, origin));
    servers.push(s);
    return s;
  };
  const recordPrice = (price: ScriptedServer, base = '/base') =>
    record({ baseUrl: node.url, address: '0x1', outDir: mkdtempSync(join(tmp, 'rec-')), count: 1, progress: () => {}, price: { baseUrl: `${price.url}${base}`, pair: 'btc_usdt', apiKey: KEY } });

  it('refuses a redirect of a keyed request to another origin, naming it, and sends nothing there', async () => {
    elsewhere.requests.length = 0;
    const price = await priceServer((_path, res) => res.writeHead(307, { location: `${elsewhere.url}/latest` }).end());
    const err = await within(5_000, 'record', rejectionOf(recordPrice(price)));
    expect(String(err)).toContain(`it leads to another origin (${elsewhere.url})`);
    expect(elsewhere.requests).toEqual([]);
  });

  it('refuses a redirect of a node request to another origin and writes no recording', async () => {
    elsewhere.requests.length = 0;
    const hop = await priceServer((path, res) => res.writeHead(302, { location: `${elsewhere.url}${path}` }).end());
    const dir = mkdtempSync(join(tmp, 'rec-'));
    const err = await rejectionOf(record({ baseUrl: hop.url, address: '0x1', outDir: dir, count: 1, progress: () => {} }));
    expect(String(err)).toContain(`it leads to another origin (${elsewhere.url})`);
    expect(elsewhere.requests).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('follows same-origin redirects, sending the key only under the price base URL, and records no echo of it', async () => {
    const price = await priceServer((path, res) => {
      if (path === '/base/latest') return void res.writeHead(302, { location: '/base/..%2fother/latest' }).end();
      if (path === '/base/history') return void res.writeHead(301, { location: '/base/v2/history' }).end();
      // A server that echoes the key back, in a header and in the body.
      res.writeHead(200, { 'content-type': 'application/json', 'x-echo': KEY }).end(JSON.stringify({ echo: KEY }));
    });
    const { file } = await within(5_000, 'record', recordPrice(price));
    expect(keyed(price, '/base/latest')).toEqual([KEY]);
    expect(keyed(price, '/base/..%2fother/latest')).toEqual([undefined]);
    expect(keyed(price, '/base/history')).toEqual([KEY]);
    expect(keyed(price, '/base/v2/history')).toEqual([KEY]);
    expect(readFileSync(file, 'utf8')).not.toContain(KEY);
  });

  it('gives up after a few redirects', async () => {
    const price = await priceServer((_path, res) => res.writeHead(302, { location: '/base/latest' }).end());
    const err = await within(5_000, 'record', rejectionOf(recordPrice(price)));
    expect(String(err)).toMatch(/more than 5 redirects/);
    expect(price.requests.length).toBeLessThanOrEqual(6);
  });
});
