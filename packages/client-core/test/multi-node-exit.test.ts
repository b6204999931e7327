/**
 * No timer left behind by several nodes: in a child process (fixtures/multi-node-calls.ts), calls over
 * two nodes leave a node resting for a minute, a hedge aborted, a node timed out, a rate limiter that
 * made a walk wait, a call that left the limiter's queue on abort, and nodes all resting; the process
 * must then exit by itself within 1 s of the last call, which it cannot while a rest, hedge or limiter
 * timer, or a request, is left running.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeStub, type NodeStubHandle } from '@x/testing';
import { startSilentServer } from '@x-tools/scripted-server';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/multi-node-calls.ts', import.meta.url));

type Closable = { url: string; close(): Promise<void> };

/** Answers every request after 300 ms (an account body), unless the client closes it first. */
async function startSlowServer(): Promise<Closable> {
  const server: Server = createServer((_req, res) => {
    const timer = setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"sequence_number":1,"authentication_key":"0x00"}'), 300);
    res.on('close', () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** A port nothing listens on. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

type Report = { outcomes: Record<string, string>; settledAt: number };

let stub: NodeStubHandle;
let slow: Closable;
let silent: Closable;
let run: { report: Report; code: number | null; exitedAt: number; stderr: string };

beforeAll(async () => {
  stub = await startNodeStub({ seed: 7 });
  slow = await startSlowServer();
  silent = await startSilentServer();
  const args = [await deadUrl(), await deadUrl(), stub.url, slow.url, silent.url];
  run = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const exitedAt = Date.now();
      try {
        resolve({ report: JSON.parse(stdout.trim().split('\n').at(-1)!) as Report, code, exitedAt, stderr });
      } catch {
        reject(new Error(`the child printed no report (exit ${code}): ${stdout}${stderr}`));
      }
    });
  });
}, 30_000);

afterAll(async () => {
  await Promise.all([stub?.close(), slow?.close(), silent?.close()]);
});

describe('several nodes leave no timer behind', () => {
  it.each([
    ['a dead node, then the stub', 'first:dead fallback:stub'],
    ['the dead node rests: skipped', 'first:stub'],
    ['a node that never answers times out, then the stub', 'first:silent fallback:stub'],
    ['hedged: the slow node aborted', 'first:slow hedge:stub'],
    ['a rate-limited walk, concurrency 4, the first node dead', '150 transactions'],
    ['a call aborted while it waits in the limiter', 'left the queue'],
    ['every node rests longer than the call may wait', 'NodesFailedError, then NodesFailedError at once'],
  ])('%s: %s', (name, expected) => {
    expect(run.report.outcomes[name]).toBe(expected);
  });

  it('the process exits by itself within 1 s of the last call', () => {
    expect(run.stderr).not.toMatch(/still alive/);
    expect(run.code).toBe(0);
    expect(run.exitedAt - run.report.settledAt).toBeLessThan(1_000);
  });
});
