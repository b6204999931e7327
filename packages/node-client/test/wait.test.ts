/**
 * `waitForTransaction` over loopback nodes of the test's own, each answering the transaction by hash as
 * the test scripts it (a status and a body per request): across several nodes (a lagging node's 404 does
 * not pin the wait to it), only the transaction asked (another hash, or a body that is no transaction, is
 * a ResponseShapeError), the poll interval's floor, and what the timeout says the node last answered.
 * Every wait runs on fake time (`useFakeTime`), so none waits on the wall clock.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createNodeClient,
  fallback,
  http,
  HttpError,
  InvalidArgumentError,
  isNotFound,
  ResponseShapeError,
  TransactionWaitTimeoutError,
  waitForTransaction,
} from '@x/node-client';
import { expectInvalid, rejectionOf, useFakeTime } from '@x-tools/test-helpers';

const time = useFakeTime();
const HASH = `0x${'ab'.repeat(32)}`;
const OTHER = `0x${'cd'.repeat(32)}`;
/** A transaction as the node sends it: lowercase hash with `0x`. */
const tx = (status: string, hash = HASH) => ({ txn_type: 'user', hash, status, header: {}, payload: {}, output: null });

/** One node: `answer(n)` gives the status and body of its n-th request (from 1) for the transaction. */
type Node = { url: string; requests: number; answer: (n: number) => readonly [number, unknown] };
const servers: Server[] = [];
async function startNode(answer: Node['answer']): Promise<Node> {
  const node: Node = { url: '', requests: 0, answer };
  const server = createServer((req, res) => {
    if (!/^\/rpc\/v3\/transactions\/(0x)?[0-9a-fA-F]{64}$/.test(req.url!)) return res.writeHead(500).end();
    const [status, body] = node.answer(++node.requests);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  node.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return node;
}
const unknown = (): readonly [number, unknown] => [404, { message: 'Transaction not found' }];
const final = (): readonly [number, unknown] => [200, tx('Success')];

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

describe('across several nodes', () => {
  it('a lagging first node that answers 404 does not pin the wait: the next node, which has it, answers', async () => {
    time.start();
    const [lagging, archive] = await Promise.all([startNode(unknown), startNode(final)]);
    const node = createNodeClient({ baseUrl: [lagging.url, archive.url], retry: false });
    const found = await time.drive(node.waitForTransaction(HASH, { timeoutMs: 3_000 }), 'the wait');
    expect(found).toMatchObject({ hash: HASH, status: 'Success' });
    expect([lagging.requests, archive.requests]).toEqual([1, 1]);
  });

  it('asks every node in turn, over a fallback transport too, and keeps polling those that do not know it yet', async () => {
    time.start();
    const nodes = await Promise.all([startNode(unknown), startNode(unknown), startNode((n) => (n < 2 ? unknown() : n < 3 ? [200, tx('Pending')] : final()))]);
    const transport = fallback({ baseUrl: nodes.map((n) => n.url), retry: false });
    const found = await time.drive(waitForTransaction(transport, HASH, { pollIntervalMs: 50 }), 'the wait');
    expect(found.status).toBe('Success');
    // Round robin: a, b, c (404), a, b, c (Pending), a, b, c (Success).
    expect(nodes.map((n) => n.requests)).toEqual([3, 3, 3]);
  });
});

describe('only the transaction asked', () => {
  it.each([
    ['null', null, ''],
    ['a list', [], ''],
    ['text', 'Success', ''],
    ['a number', 5, ''],
    ['another hash', tx('Success', OTHER), '/hash'],
    ['no hash', { txn_type: 'user', status: 'Success' }, '/hash'],
    ['a status that is no text', { ...tx('Success'), status: 1 }, '/status'],
  ])('%s from the one node is a ResponseShapeError at once, not a TypeError nor a wait to the timeout', async (_label, body, path) => {
    time.start();
    const one = await startNode(() => [200, body]);
    const err = await time.drive(rejectionOf(waitForTransaction(http({ baseUrl: one.url, retry: false }), HASH, { timeoutMs: 2_000 })), 'the wait');
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err).toMatchObject({ code: 'RESPONSE_SHAPE_ERROR', operationId: 'getTransactionV3', path });
    expect(one.requests).toBe(1);
  });

  it('with several nodes, a node that answers another transaction is asked no more; the next answers the one asked', async () => {
    time.start();
    const [liar, honest] = await Promise.all([startNode(() => [200, tx('Success', OTHER)]), startNode(final)]);
    const node = createNodeClient({ baseUrl: [liar.url, honest.url], retry: false });
    // Asked in capitals without 0x: the node writes it lowercase with 0x, and that is the same hash.
    const found = await time.drive(node.waitForTransaction(HASH.slice(2).toUpperCase(), { timeoutMs: 2_000 }), 'the wait');
    expect(found.hash).toBe(HASH);
    expect([liar.requests, honest.requests]).toEqual([1, 1]);
  });

  it('when every node answers wrong, is the ResponseShapeError, each node asked once', async () => {
    time.start();
    const nodes = await Promise.all([startNode(() => [200, tx('Success', OTHER)]), startNode(() => [200, null])]);
    const node = createNodeClient({ baseUrl: nodes.map((n) => n.url), retry: false });
    const err = await time.drive(rejectionOf(node.waitForTransaction(HASH, { timeoutMs: 2_000 })), 'the wait');
    expect(err).toMatchObject({ code: 'RESPONSE_SHAPE_ERROR', operationId: 'getTransactionV3' });
    expect(nodes.map((n) => n.requests)).toEqual([1, 1]);
  });
});

describe('the poll interval has a floor of 50 ms', () => {
  it.each([1, 49])('pollIntervalMs %i is refused before any request', async (pollIntervalMs) => {
    const one = await startNode(final);
    await expectInvalid(waitForTransaction(http({ baseUrl: one.url }), HASH, { pollIntervalMs }), 'pollIntervalMs');
    const err = await rejectionOf(createNodeClient({ baseUrl: one.url }).waitForTransaction(HASH, { pollIntervalMs, maxPollIntervalMs: 100 }));
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'pollIntervalMs' });
    expect(one.requests).toBe(0);
  });
});

describe('the timeout says what the node last answered', () => {
  it('every poll a 503: the wait polls on, and its timeout names the failure, not an unknown hash', async () => {
    time.start();
    const busy = await startNode(() => [503, { message: 'busy' }]);
    const err = await time.drive(rejectionOf(createNodeClient({ baseUrl: busy.url, retry: false }).waitForTransaction(HASH, { timeoutMs: 1_000, pollIntervalMs: 100 })), 'the wait');
    expect(err).toBeInstanceOf(TransactionWaitTimeoutError);
    const timeout = err as TransactionWaitTimeoutError;
    expect(timeout).toMatchObject({ code: 'TRANSACTION_WAIT_TIMEOUT', hash: HASH, lastStatus: undefined });
    expect(timeout.lastError).toBeInstanceOf(HttpError);
    expect(timeout.lastError).toMatchObject({ status: 503 });
    expect(timeout.message).toContain('the last poll failed: HttpError, HTTP 503');
    expect(timeout.message).not.toContain('did not know');
    expect(busy.requests).toBeGreaterThan(3);
  });

  it('a hash no node knows: "unknown to the node", with the 404 as lastError', async () => {
    time.start();
    const nodes = await Promise.all([startNode(unknown), startNode(unknown)]);
    const err = await time.drive(rejectionOf(createNodeClient({ baseUrl: nodes.map((n) => n.url), retry: false }).waitForTransaction(HASH, { timeoutMs: 1_000 })), 'the wait');
    expect(err).toBeInstanceOf(TransactionWaitTimeoutError);
    expect((err as TransactionWaitTimeoutError).message).toMatch(/\(unknown to the node asked last \(HTTP 404\)\)$/);
    expect(isNotFound((err as TransactionWaitTimeoutError).lastError)).toBe(true);
    // Polls at 0, 250 and 625 ms (the next would be at 1,187): a, b, a.
    expect(nodes.map((n) => n.requests)).toEqual([2, 1]);
  });

  it('a pending transaction that a lagging node then does not know: the 404, and the status seen before', async () => {
    time.start();
    const [known, lagging] = await Promise.all([startNode(() => [200, tx('Pending')]), startNode(unknown)]);
    const wait = createNodeClient({ baseUrl: [known.url, lagging.url], retry: false }).waitForTransaction(HASH, { timeoutMs: 1_000, pollIntervalMs: 300, maxPollIntervalMs: 300 });
    const err = await time.drive(rejectionOf(wait), 'the wait');
    // Polls at 0, 300, 600 and 900 ms: a, b, a, b.
    expect([known.requests, lagging.requests]).toEqual([2, 2]);
    expect(err).toMatchObject({ lastStatus: 'Pending', message: expect.stringMatching(/unknown to the node asked last \(HTTP 404\); last status seen Pending\)$/) as unknown });
  });
});
