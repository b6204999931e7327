/**
 * The node client's own test plumbing: a recording clock for retry tests and a tiny misbehaving
 * loopback server for what the (well-behaved) stub never does. What every package's tests share (the
 * stub per test file, the process guard, `rejectionOf`, `expectInvalid`, `collect`) is in
 * `@x-tools/test-helpers`. Everything talks real HTTP; nothing mocks fetch.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { expect } from 'vitest';
import { startScriptedServer } from '@x-tools/scripted-server';

/** A value's JSON text; `undefined` for what JSON cannot hold (a bigint). */
function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/**
 * `expect(actual, message).toEqual(expected)` for values parsed from JSON (the items of a walk): the same
 * JSON text passes at once, at a sixth of `toEqual`'s CPU on thousands of transactions; anything else
 * (another key order, a bigint, a difference) goes to `toEqual`, its verdict and its diff. Not for Maps,
 * Sets or arrays holding `undefined`, whose JSON text hides what `toEqual` sees.
 */
export function expectSameJson(actual: unknown, expected: unknown, message?: string): void {
  const text = jsonText(actual);
  if (text === undefined || text !== jsonText(expected)) expect(actual, message).toEqual(expected);
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
