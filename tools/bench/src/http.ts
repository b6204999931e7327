/**
 * Benchmarks 2 and 3: the node client against a raw `fetch` of the same URLs. Loopback servers run in a
 * child process (see server.ts); the `in-memory` target answers from memory through the client's
 * `fetch` option, to show the client's own cost without any network (reported, no target).
 *
 * - getAccount: `node.v2.getAccount(busy)` vs what a careful hand-written call does:
 *   `fetch(url, { signal: AbortSignal.timeout(30_000) })`, a status check, `res.json()` (a call without a
 *   timeout is not the same product), `requests` calls per sample, `concurrency` in flight on both sides.
 * - iterate: `for await (const tx of node.v2.transactions(addr, { start: 0 }))` vs a raw loop fetching
 *   the same pages (`count=100&start=n`, the next start after the last record's sequence number, stopping
 *   at a short page) one after the other, as the iterator does. 10,000 transactions per sample: the
 *   synthetic account (pre-rendered server, in-memory); the busy account (2,500) walked 4 times (stub).
 *
 * Both sides use the same fetch (on loopback the global `fetch`: undici, one keep-alive pool) and the
 * client its defaults (retries on, 30 s timeout, no validator).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createNodeClient, type NodeClient } from '@x/node-client';
import { STUB_ACCOUNTS } from '@x/testing';
import { measureAsync, median, pairedRatio, pool, type Rounds } from './harness.ts';
import { accountPath, PAGE, txPagePath, type ServersReady } from './server.ts';
import type { Row } from './report.ts';

/** The servers' addresses, and how to stop them. */
export type Servers = { ready: ServersReady; close(): Promise<void> };

export async function startServers(): Promise<Servers> {
  const child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise<ServersReady>((resolve, reject) => {
    child.once('message', (m) => resolve(m as ServersReady));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`server process exited (${String(code)}) before it was ready`)));
  });
  return {
    ready,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send('close');
      }),
  };
}

/**
 * Where the requests go: a loopback server (`fetch` = the global fetch), or `memory`, a fetch that
 * answers from bodies held in memory, with no network at all (the client's `fetch` option), which
 * leaves only the client's own cost and the Request/Response/JSON work both sides share.
 */
export type Target = {
  /** Shown in the row names and ids: `pre-rendered`, `stub`, `in-memory`. */
  name: string;
  baseUrl: string;
  fetch: (url: string, init?: RequestInit) => Promise<Response>;
  /** The client's `fetch` option; on loopback none (the client's default, the global fetch). */
  clientFetch?: (request: Request) => Promise<Response>;
  /** Rows of this target carry no target ratio (diagnostics). */
  info?: boolean;
};

export const loopback = (name: string, baseUrl: string): Target => ({ name, baseUrl, fetch: (url, init) => fetch(url, init) });

/** A target answering from `bodies` (path and query -> body), as the pre-rendered server would. */
export async function inMemory(from: string, paths: readonly string[]): Promise<Target> {
  const baseUrl = 'http://in-memory.invalid';
  const bodies = new Map<string, string>();
  for (const p of paths) {
    const res = await fetch(from + p);
    if (!res.ok) throw new Error(`${res.status} from ${from + p}`);
    bodies.set(baseUrl + p, await res.text());
  }
  const headers = { 'content-type': 'application/json' };
  const answer = async (url: string): Promise<Response> => {
    const body = bodies.get(url);
    return body === undefined ? new Response('{"error":"not_found"}', { status: 404, headers }) : new Response(body, { headers });
  };
  // Both sides call a fetch of the client's `fetch` option shape, which takes a Request, as the global
  // fetch makes one of its URL: so the Request is work both sides share, not a cost of the client.
  const memoryFetch = (request: Request): Promise<Response> => answer(request.url);
  return { name: 'in-memory', baseUrl, info: true, fetch: (url, init) => memoryFetch(new Request(url, init)), clientFetch: memoryFetch };
}

export function clientFor(t: Target): NodeClient {
  return createNodeClient({ baseUrl: t.baseUrl, fetch: t.clientFetch });
}

/** What a careful hand-written call does: a timeout (the client's default, 30 s), a status check, `res.json()`. */
export async function rawJson(t: Target, url: string): Promise<unknown> {
  const res = await t.fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`${res.status} from ${url}`);
  return res.json();
}

/** CPU time of this process (the client side) per unit of work, and client / raw. */
function cpuOf(cpu: Rounds<'raw' | 'client'>, units: number, unit: string): NonNullable<Row['cpu']> {
  const per = (ms: number): number => (ms * 1000) / units;
  return { raw: per(median(cpu.raw)), client: per(median(cpu.client)), unit, ratio: pairedRatio(cpu.raw, cpu.client).ratio };
}


/** Benchmark 2 on one server. */
export async function benchGetAccount(t: Target, o: { requests: number; concurrency: number; rounds: number }): Promise<Row> {
  const address = STUB_ACCOUNTS.busy;
  const node = clientFor(t);
  const url = t.baseUrl + accountPath(address);
  const rounds = await measureAsync(
    {
      raw: () => pool(o.requests, o.concurrency, () => rawJson(t, url)),
      client: () => pool(o.requests, o.concurrency, () => node.v2.getAccount(address)),
    },
    // A fresh process (see cases.ts): the first few samples of each arm are still JIT-compiling undici's
    // and the client's code and filling the keep-alive pool, and run up to twice as long.
    { rounds: o.rounds, warmupRounds: 8 },
  );
  const perSecond = (ms: number): number => (o.requests / ms) * 1000;
  // raw time / client time = client throughput / raw throughput
  const r = pairedRatio(rounds.wall.client, rounds.wall.raw);
  return {
    id: `getAccount.${t.name}`,
    group: '2',
    name: `node.v2.getAccount, ${o.requests.toLocaleString('en')} calls, ${o.concurrency} in flight (${t.name})`,
    a: { label: 'raw fetch', value: perSecond(median(rounds.wall.raw)), unit: 'req/s' },
    b: { label: 'client', value: perSecond(median(rounds.wall.client)), unit: 'req/s' },
    ratio: r.ratio,
    spread: r.spread,
    ci: r.ci,
    ratioMeaning: 'client throughput / raw fetch throughput',
    target: t.info ? undefined : { op: '>=', value: 0.95 },
    cpu: cpuOf(rounds.cpu, o.requests, 'µs/request'),
    samples: rounds,
  };
}

/** Benchmark 3 on one server: `repeats` walks of the account's transactions per sample. */
export async function benchIterate(t: Target, address: string, expected: number, o: { rounds: number; repeats: number }): Promise<Row> {
  const node = clientFor(t);
  const viaClient = async (): Promise<number> => {
    let n = 0;
    for (let i = 0; i < o.repeats; i++) {
      for await (const tx of node.v2.transactions(address, { start: 0 })) if (tx) n++;
    }
    if (n !== expected * o.repeats) throw new Error(`client iterated ${n} transactions, expected ${expected * o.repeats}`);
    return n;
  };
  const viaRaw = async (): Promise<number> => {
    let n = 0;
    for (let i = 0; i < o.repeats; i++) {
      for (let start = 0; ; ) {
        const { record } = (await rawJson(t, t.baseUrl + txPagePath(address, start))) as { record: { header: { sequence_number: number } }[] };
        for (const tx of record) if (tx) n++;
        if (record.length < PAGE) break;
        start = record[record.length - 1]!.header.sequence_number + 1;
      }
    }
    if (n !== expected * o.repeats) throw new Error(`raw loop read ${n} transactions, expected ${expected * o.repeats}`);
    return n;
  };
  const rounds = await measureAsync({ raw: viaRaw, client: viaClient }, { rounds: o.rounds, warmupRounds: 1 });
  const total = expected * o.repeats;
  const perSecond = (ms: number): number => (total / ms) * 1000;
  const r = pairedRatio(rounds.wall.client, rounds.wall.raw);
  const what = o.repeats === 1 ? `${total.toLocaleString('en')} txs` : `${expected.toLocaleString('en')} txs x ${o.repeats}`;
  return {
    id: `iterate.${t.name}`,
    group: '3',
    name: `node.v2.transactions, ${what}, pages of ${PAGE} (${t.name})`,
    a: { label: 'raw pages', value: perSecond(median(rounds.wall.raw)), unit: 'tx/s' },
    b: { label: 'iterator', value: perSecond(median(rounds.wall.client)), unit: 'tx/s' },
    ratio: r.ratio,
    spread: r.spread,
    ci: r.ci,
    ratioMeaning: 'iterator throughput / raw page fetch throughput',
    target: t.info ? undefined : { op: '>=', value: 0.9 },
    cpu: cpuOf(rounds.cpu, total, 'µs/tx'),
    samples: rounds,
  };
}
