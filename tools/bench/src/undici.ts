/**
 * Benchmark 2, on undici (issue 45): `node.v2.getAccount` over `httpUndici` (`@x/node-client/node`)
 * against a raw undici `request` of the same URL (a status check and `body.json()`), 32 in flight over
 * the pre-rendered loopback server's keep-alive connections; and, in the same rounds, the client over
 * `http` (fetch) against the same raw `request`: what an indexer gains by choosing the undici transport.
 * All three arms use undici's global dispatcher (the global fetch's too).
 */
import { createNodeClient } from '@x/node-client';
import { httpUndici } from '@x/node-client/node';
import { STUB_ACCOUNTS } from '@x/testing';
import { request } from 'undici';
import { measureAsync, median, pairedRatio, pool } from './harness.ts';
import type { Row } from './report.ts';
import { accountPath } from './server.ts';

/** A raw undici call as a careful hand-written one is: a status check and the parsed body. */
async function rawRequest(url: string): Promise<unknown> {
  const { statusCode, body } = await request(url);
  if (statusCode !== 200) {
    await body.dump();
    throw new Error(`${statusCode} from ${url}`);
  }
  return body.json();
}

export async function benchUndici(baseUrl: string, o: { requests: number; concurrency: number; rounds: number }): Promise<Row[]> {
  const address = STUB_ACCOUNTS.busy;
  const url = baseUrl + accountPath(address);
  const viaUndici = createNodeClient({ transport: httpUndici({ baseUrl }) });
  const viaFetch = createNodeClient({ baseUrl });
  const rounds = await measureAsync(
    {
      raw: () => pool(o.requests, o.concurrency, () => rawRequest(url)),
      undici: () => pool(o.requests, o.concurrency, () => viaUndici.v2.getAccount(address)),
      fetch: () => pool(o.requests, o.concurrency, () => viaFetch.v2.getAccount(address)),
    },
    // A fresh process: the first samples still compile undici's and the client's code and fill the pool.
    { rounds: o.rounds, warmupRounds: 8 },
  );
  const perSecond = (ms: number): number => (o.requests / ms) * 1000;
  const raw = { label: 'raw undici request', value: perSecond(median(rounds.wall.raw)), unit: 'req/s' };
  const cpuPer = (ms: number[]): number => (median(ms) * 1000) / o.requests;
  const row = (arm: 'undici' | 'fetch', id: string, label: string, target: Row['target']): Row => {
    // raw time / arm time = arm throughput / raw throughput
    const r = pairedRatio(rounds.wall[arm], rounds.wall.raw);
    return {
      id,
      group: '2',
      name: `node.v2.getAccount over ${label}, ${o.requests.toLocaleString('en')} calls, ${o.concurrency} in flight (pre-rendered)`,
      a: raw,
      b: { label: `client (${label})`, value: perSecond(median(rounds.wall[arm])), unit: 'req/s' },
      ratio: r.ratio,
      spread: r.spread,
      ci: r.ci,
      ratioMeaning: `client over ${label} throughput / raw undici request throughput`,
      target,
      cpu: { raw: cpuPer(rounds.cpu.raw), client: cpuPer(rounds.cpu[arm]), unit: 'µs/request', ratio: pairedRatio(rounds.cpu.raw, rounds.cpu[arm]).ratio },
      samples: { wall: { raw: rounds.wall.raw, client: rounds.wall[arm] }, cpu: { raw: rounds.cpu.raw, client: rounds.cpu[arm] } },
    };
  };
  return [row('undici', 'getAccount.undici', 'httpUndici', { op: '>=', value: 0.8 }), row('fetch', 'getAccount.undici.fetch', 'http (fetch)', undefined)];
}
