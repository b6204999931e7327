/**
 * Every call ends, and leaves nothing running: in a child process with `--expose-gc`, collections run
 * while calls wait on a server that never answers (and one whose body trickles forever). Each call must
 * settle with its own error, and the process must then exit by itself, which it cannot while a request
 * or socket is left behind. Before the runtime settled calls on its own timer, 6 of 7 such calls never
 * settled (nodejs/undici#4068: a signal followed through a collected Request copy is lost).
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSilentServer } from '@x-tools/scripted-server';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/calls-under-gc.ts', import.meta.url));

/** Starts `server` on loopback; resolves to its URL and a close that ends every connection. */
function listen(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}

/** Answers 200 and then one byte of body every 50 ms, until the client goes away (or 30 s pass). */
const startTricklingServer = () =>
  listen(
    createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
      res.write('{');
      const timer = setInterval(() => res.write(' '), 50);
      const stop = setTimeout(() => res.destroy(), 30_000);
      res.on('close', () => {
        clearInterval(timer);
        clearTimeout(stop);
      });
    }),
  );

/**
 * Redirects within its origin twice (/rpc/... to /hop1/... to /hop2/...), then never answers: each hop
 * is a Request of the client's own, and the last one must still follow the attempt's signal.
 */
const startRedirectingServer = () =>
  listen(
    createServer((req, res) => {
      const url = req.url ?? '/';
      if (url.startsWith('/hop2')) return; // never answers
      res.writeHead(307, { location: url.startsWith('/hop1') ? `/hop2${url.slice(5)}` : `/hop1${url}` }).end();
    }),
  );

type Report = { outcomes: Record<string, string>; settledMs: number; settledAt: number };

let silent: Awaited<ReturnType<typeof startSilentServer>>;
let trickle: Awaited<ReturnType<typeof startTricklingServer>>;
let redirecting: Awaited<ReturnType<typeof startRedirectingServer>>;
let run: { report: Report; code: number | null; exitedAt: number; stderr: string };

beforeAll(async () => {
  silent = await startSilentServer();
  trickle = await startTricklingServer();
  redirecting = await startRedirectingServer();
  run = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', FIXTURE, silent.url, trickle.url, redirecting.url], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
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
  await silent?.close();
  await trickle?.close();
  await redirecting?.close();
});

describe('under forced garbage collection, every call ends', () => {
  it.each([
    ['node timeout', 'TimeoutError'],
    ['node timeout with a signal', 'TimeoutError'],
    ["node caller's abort", 'Error'], // the signal's reason, as given
    ['node custom fetch', 'TimeoutError'],
    ['node iterator', 'TimeoutError'],
    ['price history with a signal', 'TimeoutError'],
    ['price latest with a key', 'TimeoutError'],
    ['price historyRange', 'TimeoutError'],
    ['price next call after a timeout', 'TimeoutError'],
    ['trickling body', 'TimeoutError'],
    ['redirected twice within the origin, then silent', 'TimeoutError'],
    ['redirected twice, then silent, through a custom fetch', 'TimeoutError'],
    ['a lone surrogate in a query value', 'InvalidArgumentError'],
  ])('%s rejects with %s', (name, expected) => {
    expect(run.report.outcomes[name]).toBe(expected);
  });

  it('every call settles on its own timer (300 ms), not on a late fetch failure', () => {
    expect(run.report.settledMs).toBeLessThan(2_000);
  });

  it('the process exits by itself within 1 s after the last call settled: no request is left running', () => {
    expect(run.stderr).not.toMatch(/still alive/);
    expect(run.code).toBe(0);
    expect(run.exitedAt - run.report.settledAt).toBeLessThan(1_000);
  });
});
