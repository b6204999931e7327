/**
 * The usual mistakes get a clear answer before any request: an InvalidArgumentError naming the
 * parameter, echoing the value (never a secret) and saying what was probably meant. And what is not a
 * mistake is accepted: any case of an address (its `0X` too), a u64 with leading zeros. Network and body
 * failures keep their cause in the message. All over loopback HTTP, through the public API.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createNodeClient, explain, InvalidArgumentError, NetworkError, ResponseParseError } from '@x/node-client';
import { STUB_ACCOUNTS } from '@x/testing';
import { rejectionOf, useNodeStub } from '@x-tools/test-helpers';
import { json, startBadServer } from './helpers.ts';

const ctx = useNodeStub();

describe('baseUrl: the URL that was probably meant', () => {
  const cases: [label: string, baseUrl: string | string[], hint: string | undefined][] = [
    ['a host without a scheme', 'rpc-mainnet.supra.com', '(did you mean "https://rpc-mainnet.supra.com"?)'],
    ['host:port without a scheme (new URL reads "localhost:" as a scheme): a loopback host speaks http', 'localhost:27000', '(did you mean "http://localhost:27000"?)'],
    ['a loopback IP and port without a scheme', '127.0.0.1:27000', '(did you mean "http://127.0.0.1:27000"?)'],
    ['another IP without a scheme', '10.0.0.5:27000', '(did you mean "https://10.0.0.5:27000"?)'],
    ['a host and path without a scheme', 'example.com/supra', '(did you mean "https://example.com/supra"?)'],
    ['the v1 API path', 'https://rpc-mainnet.supra.com/rpc/v1', `ends in /rpc/v1, got "https://rpc-mainnet.supra.com/rpc/v1" (did you mean "https://rpc-mainnet.supra.com"?)`],
    ['the v2 API path with a slash', 'https://rpc-mainnet.supra.com/rpc/v2/', 'ends in /rpc/v2/, got "https://rpc-mainnet.supra.com/rpc/v2/" (did you mean "https://rpc-mainnet.supra.com"?)'],
    ['an API path under a proxy prefix', 'http://127.0.0.1:8080/supra/rpc/v2', 'ends in /rpc/v2, got "http://127.0.0.1:8080/supra/rpc/v2" (did you mean "http://127.0.0.1:8080/supra"?)'],
    ['an API path, in a list of nodes', ['https://a.example', 'https://b.example/rpc/v2'], 'ends in /rpc/v2, got "https://b.example/rpc/v2" (did you mean "https://b.example"?)'],
    // No hint where the value could hold a secret, or where https:// + it is no URL either.
    ['credentials without a scheme: no echo', 'user:s3cret@rpc.example', undefined],
    ['credentials and an API path: no echo', 'https://user:s3cret@rpc.example/rpc/v1', undefined],
    ['a query and an API path: no echo', 'https://rpc.example/rpc/v1?key=s3cret', undefined],
    ['a path that would read as another host: its own host kept', 'https://rpc.example//other.example/rpc/v1', '(did you mean "https://rpc.example//other.example"?)'],
    ['a query without a scheme: no echo', 'rpc.example/?key=s3cret', undefined],
    ['not a URL at all: no hint', 'not a url', undefined],
    ['another scheme: no hint', 'ftp://127.0.0.1', undefined],
    // A same-origin proxy's path works in a page (see the browser tests); here there is no page (issue 37.12).
    ['a path outside a page', '/rpc-proxy', 'a path such as "/prices" is relative to the page; elsewhere there is no page'],
  ];

  it.each(cases)('%s', (_label, baseUrl, hint) => {
    let caught: unknown;
    try {
      createNodeClient({ baseUrl });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(InvalidArgumentError);
    expect((caught as InvalidArgumentError).code).toBe('INVALID_ARGUMENT');
    expect((caught as InvalidArgumentError).parameter).toBe('baseUrl');
    // The message is short; explain(err) says what was probably meant.
    const message = `${(caught as InvalidArgumentError).message} ${explain(caught)}`;
    for (const part of hint?.split(' (did you ') ?? []) expect(message).toContain(part.startsWith('mean') ? `(did you ${part}` : part);
    if (!hint) expect(message).not.toContain('did you mean');
    expect(message).not.toContain('s3cret');
  });

  it('a path that only contains an API path segment is a base (a proxy prefix)', () => {
    expect(createNodeClient({ baseUrl: 'https://proxy.example/rpc/v1/node-a' }).baseUrls).toEqual(['https://proxy.example/rpc/v1/node-a']);
    expect(createNodeClient({ baseUrl: 'https://proxy.example/history-node' }).baseUrls).toEqual(['https://proxy.example/history-node']);
  });
});

describe('what is not a mistake is accepted, in its canonical wire form', () => {
  const A = STUB_ACCOUNTS.alice;
  const cases: [label: string, call: (n: ReturnType<typeof createNodeClient>) => Promise<unknown>, sent: string][] = [
    ['an address with a capital 0X', (n) => n.v2.getAccount('0X1'), '/rpc/v2/accounts/0x1'],
    ['an address all upper case', (n) => n.v1.getAccount(`0X${A.slice(2).toUpperCase()}`), `/rpc/v1/accounts/${A}`],
    ['an address without 0x, mixed case', (n) => n.v2.listResources(A.slice(2).replace(/[a-f]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c)), { count: 1 }), `/rpc/v2/accounts/${A}/resources?count=1`],
    ['a u64 start with leading zeros', (n) => n.v2.listTransactions(A, { start: '007', count: 1 }), `/rpc/v2/accounts/${A}/transactions?count=1&start=7`],
    ['a u64 start of zeros only', (n) => n.v1.listCoinTransactions(A, { start: '000', count: 1 }), `/rpc/v1/accounts/${A}/coin_transactions?count=1&start=0`],
    ['u64 max with a leading zero', (n) => n.v2.listCoinTransactions(A, { start: '018446744073709551615' }), `/rpc/v2/accounts/${A}/coin_transactions?start=18446744073709551615`],
  ];

  it.each(cases)('%s', async (_label, call, sent) => {
    // A server that records what arrives, as the client sent it.
    const server = await startBadServer((_url, res) => json(res, {}));
    try {
      await call(createNodeClient({ baseUrl: server.url, retry: false }));
      expect(server.requests).toEqual([sent]);
    } finally {
      await server.close();
    }
  });

  it('a u64 string still has to be decimal, in range and whole', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url, retry: false });
    for (const start of ['0x10', '1.0', '-1', '', '018446744073709551616', '1e3']) {
      const err = await rejectionOf(node.v2.listTransactions(STUB_ACCOUNTS.alice, { start }));
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'start' });
      expect((err as Error).message).toContain(`must be a u64 from 0 to 18446744073709551615 (number, bigint or decimal string), got ${JSON.stringify(start)}`);
    }
    expect(ctx.stub.requests).toEqual([]);
  });

  it('a u64 past 2^53-1 as a number: a short message, and explain(err) says how to pass it', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url, retry: false });
    const err = await rejectionOf(node.v2.listTransactions(STUB_ACCOUNTS.alice, { start: 2 ** 53 }));
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'start', message: `Invalid argument 'start': must be a safe integer, got ${2 ** 53}` });
    expect(explain(err)).toContain('as a bigint or a decimal string');
    expect(ctx.stub.requests).toEqual([]);
  });
});

describe('network and body failures keep their cause', () => {
  it('a fetch refused before connecting names why: bad port', async () => {
    const err = await rejectionOf(createNodeClient({ baseUrl: 'http://127.0.0.1:1', retry: false }).v2.getAccount('0x1'));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).message).toBe('GET http://127.0.0.1:1/rpc/v2/accounts/0x1: fetch failed: bad port');
  });

  it('a name that does not resolve names the lookup and its code', async () => {
    const err = await rejectionOf(createNodeClient({ baseUrl: 'http://no-such-node.invalid', retry: false }).v2.getAccount('0x1'));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).message).toMatch(/0x1: fetch failed: getaddrinfo \w+ no-such-node\.invalid/);
  });

  it('a body cut short says after how many bytes, and why', async () => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write(`{"record":[${'0,'.repeat(50)}`); // 111 bytes of the 1,000 announced
      setTimeout(() => res.destroy(), 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const err = await rejectionOf(createNodeClient({ baseUrl: url, retry: false }).v2.listTransactions('0x1'));
      expect(err).toBeInstanceOf(ResponseParseError);
      expect((err as ResponseParseError).code).toBe('RESPONSE_PARSE_ERROR');
      expect((err as ResponseParseError).message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/rpc\/v2\/accounts\/0x1\/transactions: not JSON: cut short after 111 bytes: terminated: other side closed \(UND_ERR_SOCKET\)$/);
      expect((err as ResponseParseError).message).not.toContain('not valid JSON');
      expect(((err as ResponseParseError).cause as Error).message).toBe('cut short after 111 bytes');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a whole body that is not JSON still says so', async () => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('<html>maintenance</html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const err = await rejectionOf(createNodeClient({ baseUrl: url, retry: false }).v2.getAccount('0x1'));
      expect(err).toBeInstanceOf(ResponseParseError);
      expect((err as ResponseParseError).message).toMatch(/0x1: not JSON: Unexpected token/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
