/**
 * Shared test plumbing: a node stub per test file, a guard against unhandled rejections and open
 * handles, a recording clock for retry tests, and a tiny misbehaving loopback server for what the
 * (well-behaved) stub never does. Everything talks real HTTP; nothing mocks fetch.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { ClientError, InvalidArgumentError } from '@x/node-client';
import { startNodeStub, type NodeStubHandle } from '@x/testing';
import { startScriptedServer } from '@x-tools/scripted-server';

/**
 * Starts a node stub before the file's tests and closes it after them; empties its request log
 * before each test. After the file: no unhandled rejection happened and no socket, server or timer
 * is left open.
 */
export function useNodeStub(): { readonly stub: NodeStubHandle } {
  const ctx = {} as { stub: NodeStubHandle };
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown): void => {
    rejections.push(reason);
  };
  beforeAll(async () => {
    process.on('unhandledRejection', onRejection);
    ctx.stub = await startNodeStub({ port: 0, seed: 7 });
  });
  beforeEach(() => ctx.stub.reset());
  afterAll(async () => {
    await ctx.stub.close();
    // Node reports a rejection once the microtask queue drains; hooks may run before that.
    await new Promise((resolve) => setImmediate(resolve));
    process.off('unhandledRejection', onRejection);
    expect(rejections, 'unhandled rejections').toEqual([]);
    await expectNoOpenHandles();
  });
  return ctx;
}

/** Waits (up to 2 s) until no TCP socket, server or timer keeps the process alive; fails otherwise. */
export async function expectNoOpenHandles(): Promise<void> {
  const open = (): string[] => process.getActiveResourcesInfo().filter((r) => /^(TCP|Timeout|Immediate)/.test(r));
  // Closed sockets and servers leave the list a moment after close() resolves.
  for (let i = 0; i < 100 && open().length > 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(open(), 'open handles after the suite').toEqual([]);
}

/** The `start` (or another query value) of a recorded request. */
export function queryOf(url: string, name: string): string | null {
  return new URL(url, 'http://stub').searchParams.get(name);
}

/** Retry hooks that record each delay and advance a fake clock instead of waiting. */
export function recordingClock(options: { random?: number; start?: number } = {}): {
  delays: number[];
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
} {
  let now = options.start ?? Date.UTC(2024, 10, 1);
  const delays: number[] = [];
  return {
    delays,
    now: () => now,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      delays.push(ms);
      now += ms;
    },
    random: () => options.random ?? 0.5,
  };
}

/** Asserts that `promise` rejects with an InvalidArgumentError naming `parameter`. */
export async function expectInvalid(promise: Promise<unknown>, parameter: string): Promise<void> {
  const err: unknown = await promise.then(
    () => expect.fail(`expected an InvalidArgumentError for '${parameter}'`),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidArgumentError);
  expect(err).toBeInstanceOf(ClientError);
  expect((err as InvalidArgumentError).code).toBe('INVALID_ARGUMENT');
  expect((err as InvalidArgumentError).parameter).toBe(parameter);
}

/** The rejection of `promise` (fails the test if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );
}

/** The items of an async iterable (or of each member of a union of them). */
export type ItemOf<I> = I extends AsyncIterable<infer T> ? T : never;

/** Drains an async iterable into an array. */
export async function collect<I extends AsyncIterable<unknown>>(items: I): Promise<ItemOf<I>[]> {
  const out: ItemOf<I>[] = [];
  for await (const item of items) out.push(item as ItemOf<I>);
  return out;
}

/** A scripted loopback server; `requests` lists the URLs (path and query) it received. */
export type BadServer = { url: string; readonly requests: string[]; close(): Promise<void> };

/**
 * Starts a loopback HTTP server for behaviour the stub never shows (cursors that do not advance,
 * empty bodies, bodies that break the contract). Close it in the test's `finally` or `afterAll`.
 */
export async function startBadServer(handler: (url: URL, res: ServerResponse, req: IncomingMessage) => void): Promise<BadServer> {
  const server = await startScriptedServer((req, res, { url }) => handler(url, res, req));
  return {
    url: server.url,
    get requests() {
      return server.requests.map((r) => r.url);
    },
    close: server.close,
  };
}

/** Sends `body` as JSON with status 200 (or `status`). */
export function json(res: ServerResponse, body: unknown, status = 200): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
