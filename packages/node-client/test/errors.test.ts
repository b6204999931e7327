import type { ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import {
  ClientError,
  createNodeClient,
  HttpError,
  NetworkError,
  ResponseParseError,
  TimeoutError,
  type NodeClient,
} from '@x/node-client';
import { FAULT_KINDS, STUB_ACCOUNTS } from '@x/testing';
import { startSilentServer } from '@x-tools/scripted-server';
import { rejectionOf, useNodeStub } from '@x-tools/test-helpers';
import { startBadServer } from './helpers.ts';

const ctx = useNodeStub();
/** A client whose every request carries the stub's fault headers; one attempt, unless told. */
const faulty = (headers: Record<string, string>, options: Parameters<typeof createNodeClient>[0] = {}): NodeClient =>
  createNodeClient({ baseUrl: ctx.stub.url, retry: false, timeoutMs: 100, headers, ...options });

// Any of the error classes (their constructors differ; only instanceof matters here).
type ErrorClass = abstract new (...args: never[]) => ClientError;
type FaultCase = [fault: string, errorClass: ErrorClass, code: string, check: (err: never) => void];

const faults: FaultCase[] = [
  ['400', HttpError, 'HTTP_ERROR', (e: HttpError) => expect(e.status).toBe(400)],
  ['404', HttpError, 'HTTP_ERROR', (e: HttpError) => expect(e.body).toMatchObject({ error: 'stub_fault' })],
  ['429', HttpError, 'HTTP_ERROR', (e: HttpError) => expect(e.status).toBe(429)],
  ['500', HttpError, 'HTTP_ERROR', (e: HttpError) => expect(e.status).toBe(500)],
  ['503', HttpError, 'HTTP_ERROR', (e: HttpError) => expect(e.message).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/rpc\/v2\/accounts\/0x1: HTTP 503/)],
  [
    'html',
    HttpError,
    'HTTP_ERROR',
    (e: HttpError) => {
      // A non-JSON error body is kept as its text.
      expect(e.status).toBe(502);
      expect(e.body).toEqual(expect.stringContaining('<title>502 Bad Gateway</title>'));
    },
  ],
  [
    'not-json',
    ResponseParseError,
    'RESPONSE_PARSE_ERROR',
    (e: ResponseParseError) => {
      expect(e.status).toBe(200);
      expect(e.bodySnippet).toContain('not JSON');
    },
  ],
  ['truncated', ResponseParseError, 'RESPONSE_PARSE_ERROR', (e: ResponseParseError) => expect(e.status).toBe(200)],
  ['reset', NetworkError, 'NETWORK_ERROR', (e: NetworkError) => expect(e.cause).toBeInstanceOf(TypeError)],
  ['slow', TimeoutError, 'TIMEOUT', (e: TimeoutError) => expect(e.timeoutMs).toBe(100)],
];

describe('every fault kind of the stub has its error', () => {
  it('covers every fault kind the stub knows', () => {
    expect(FAULT_KINDS.filter((k) => !faults.some(([f]) => f === k))).toEqual([]);
  });

  it.each(faults)('%s: %o', async (fault, errorClass, code, check) => {
    // Only the slow fault is meant to time out: the others get a timeout no loaded machine reaches.
    const err = await rejectionOf(faulty({ 'x-stub-fault': fault, 'x-stub-delay-ms': '300' }, fault === 'slow' ? {} : { timeoutMs: 10_000 }).v2.getAccount('0x1'));
    expect(err).toBeInstanceOf(errorClass);
    expect(err).toBeInstanceOf(ClientError);
    expect((err as ClientError).code).toBe(code);
    expect((err as { url: string }).url).toBe(`${ctx.stub.url}/rpc/v2/accounts/0x1`);
    check(err as never);
    expect(ctx.stub.requests).toHaveLength(1);
  });

  it('a refused connection is a NetworkError', async () => {
    const gone = await startBadServer(() => undefined);
    await gone.close();
    const err = await rejectionOf(createNodeClient({ baseUrl: gone.url, retry: false }).v2.getAccount('0x1'));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).message).toContain('ECONNREFUSED');
  });

  it.each([
    ['an empty body', (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end()],
    [
      'a body cut short',
      (res: ServerResponse) => res.writeHead(200, { 'content-length': '50' }).write('{"sequence_number":', () => res.destroy()),
    ],
    ['JSON truncated in the middle', (res: ServerResponse) => res.writeHead(200).end('{"sequence_number": 1, "authentication')],
  ])('%s is a ResponseParseError', async (_label, answer) => {
    const bad = await startBadServer((_url, res) => answer(res));
    try {
      const err = await rejectionOf(createNodeClient({ baseUrl: bad.url, retry: false }).v2.getAccount('0x1'));
      expect(err).toBeInstanceOf(ResponseParseError);
    } finally {
      await bad.close();
    }
  });
});

describe('timeouts', () => {
  it('apply to each attempt and are retried like network errors', async () => {
    const node = faulty({ 'x-stub-fault': 'slow', 'x-stub-delay-ms': '300' }, { retry: { attempts: 2, sleep: async () => undefined } });
    const started = Date.now();
    const err = await rejectionOf(node.v2.getAccount('0x1'));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(ctx.stub.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190); // two attempts of 100 ms each
  });

  it('do not fire for an answer in time', async () => {
    const node = faulty({ 'x-stub-fault': 'slow', 'x-stub-delay-ms': '20' }, { timeoutMs: 2000 });
    await expect(node.v2.getAccount('0x1')).resolves.toMatchObject({ sequence_number: 40 });
  });
});

describe('what a timeout does to its request', () => {
  it('every timeout aborts its request, the first one included', async () => {
    const server = await startSilentServer();
    try {
      const node = createNodeClient({ baseUrl: server.url, retry: false, timeoutMs: 100 });
      await expect(node.v2.getAccount('0x1')).rejects.toBeInstanceOf(TimeoutError);
      await vi.waitFor(() => expect(server.closed).toEqual([true]), { timeout: 2000 });
      await expect(node.v1.listModules('0x1')).rejects.toBeInstanceOf(TimeoutError);
      await vi.waitFor(() => expect(server.closed).toEqual([true, true]), { timeout: 2000 });
    } finally {
      await server.close();
    }
  });

  it("with the caller's signal, the first timeout aborts its request too", async () => {
    const server = await startSilentServer();
    try {
      const node = createNodeClient({ baseUrl: server.url, retry: false, timeoutMs: 100 });
      const err = await rejectionOf(node.v2.getAccount('0x1', { signal: new AbortController().signal }));
      expect(err).toBeInstanceOf(TimeoutError);
      expect(err).toMatchObject({ code: 'TIMEOUT', timeoutMs: 100 });
      await vi.waitFor(() => expect(server.closed).toEqual([true]), { timeout: 2000 });
    } finally {
      await server.close();
    }
  });

  it('each attempt of a retried call is aborted by its own timeout', async () => {
    const server = await startSilentServer();
    try {
      const node = createNodeClient({ baseUrl: server.url, timeoutMs: 100, retry: { attempts: 2, sleep: async () => undefined } });
      await expect(node.v2.getAccount('0x1')).rejects.toBeInstanceOf(TimeoutError);
      await vi.waitFor(() => expect(server.closed).toEqual([true, true]), { timeout: 2000 });
    } finally {
      await server.close();
    }
  });
});

describe('a caller abort rejects with the signal reason', () => {
  it('in the middle of a request', async () => {
    const node = faulty({ 'x-stub-fault': 'slow', 'x-stub-delay-ms': '5000' }, { timeoutMs: 10_000 });
    const controller = new AbortController();
    const reason = new Error('cancelled by the user');
    const started = Date.now();
    setTimeout(() => controller.abort(reason), 50);
    await expect(node.v2.listTransactions(STUB_ACCOUNTS.busy, { signal: controller.signal })).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(ctx.stub.requests).toHaveLength(1);
  });

  it('without a reason: the DOMException AbortError the signal holds', async () => {
    const node = faulty({ 'x-stub-fault': 'slow', 'x-stub-delay-ms': '5000' }, { timeoutMs: 10_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const err = await rejectionOf(node.v2.getAccount('0x1', { signal: controller.signal }));
    expect(err).toBe(controller.signal.reason);
    expect((err as DOMException).name).toBe('AbortError');
  });

  it('before the request: nothing is sent', async () => {
    const reason = { why: 'not an Error, still the reason' };
    const err = await rejectionOf(faulty({}).v2.getAccount('0x1', { signal: AbortSignal.abort(reason) }));
    expect(err).toBe(reason);
    expect(ctx.stub.requests).toEqual([]);
  });

  it('before a timeout would fire', async () => {
    const node = faulty({ 'x-stub-fault': 'slow', 'x-stub-delay-ms': '2000' }, { timeoutMs: 300 });
    const reason = new Error('first');
    await expect(node.v2.getAccount('0x1', { signal: AbortSignal.timeout(30) })).rejects.toBeInstanceOf(DOMException);
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 30);
    await expect(node.v2.getAccount('0x1', { signal: controller.signal })).rejects.toBe(reason);
  });

  it('during the backoff between attempts', async () => {
    // The stub's 503 says Retry-After: 1; the real timer is cut short by the abort.
    const node = faulty({ 'x-stub-fault': '503' }, { retry: { attempts: 3 } });
    const controller = new AbortController();
    const reason = new Error('stop retrying');
    const started = Date.now();
    setTimeout(() => controller.abort(reason), 100);
    await expect(node.v2.getAccount('0x1', { signal: controller.signal })).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(900);
    expect(ctx.stub.requests).toHaveLength(1);
  });
});
