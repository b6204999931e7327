/**
 * Benchmark 2, issue 45 item 7: what the runtime would cost on openapi-fetch. The same call three ways, 16
 * in flight over the pre-rendered loopback server, in the same rounds: a careful `fetch` (30 s timeout,
 * status check, `res.json()`), openapi-fetch's documented `createClient(...).GET` typed by
 * `@x/node-types`' `paths` with the same timeout, and the client (`node.v2.getAccount`, its defaults).
 * Reported only: the runtime does not use openapi-fetch (see docs/size-budgets.md for the bytes).
 */
import createClient from 'openapi-fetch';
import { createNodeClient } from '@x/node-client';
import type { paths } from '@x/node-types';
import { STUB_ACCOUNTS } from '@x/testing';
import { measureAsync, median, pairedRatio, pool } from './harness.ts';
import type { Row } from './report.ts';
import { accountPath } from './server.ts';

export async function benchOpenapiFetch(baseUrl: string, o: { requests: number; concurrency: number; rounds: number }): Promise<Row[]> {
  const address = STUB_ACCOUNTS.busy;
  const url = baseUrl + accountPath(address);
  const typed = createClient<paths>({ baseUrl });
  const node = createNodeClient({ baseUrl });
  const rounds = await measureAsync(
    {
      raw: () =>
        pool(o.requests, o.concurrency, async () => {
          const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
          if (!res.ok) throw new Error(`${res.status} from ${url}`);
          return res.json();
        }),
      openapi: () =>
        pool(o.requests, o.concurrency, async () => {
          const { data, error } = await typed.GET('/rpc/v2/accounts/{address}', { params: { path: { address } }, signal: AbortSignal.timeout(30_000) });
          if (error !== undefined) throw new Error(`openapi-fetch: ${JSON.stringify(error)}`);
          return data;
        }),
      client: () => pool(o.requests, o.concurrency, () => node.v2.getAccount(address)),
    },
    { rounds: o.rounds, warmupRounds: 8 },
  );
  const perSecond = (ms: number): number => (o.requests / ms) * 1000;
  const cell = (arm: 'raw' | 'openapi' | 'client', label: string): Row['a'] => ({ label, value: perSecond(median(rounds.wall[arm])), unit: 'req/s' });
  const row = (id: string, base: 'raw' | 'openapi', arm: 'openapi' | 'client', labels: [string, string]): Row => {
    // base time / arm time = arm throughput / base throughput
    const r = pairedRatio(rounds.wall[arm], rounds.wall[base]);
    return {
      id,
      group: '2',
      name: `node.v2.getAccount, ${labels[1]} vs ${labels[0]}, ${o.requests.toLocaleString('en')} calls, ${o.concurrency} in flight (pre-rendered)`,
      a: cell(base, labels[0]),
      b: cell(arm, labels[1]),
      ratio: r.ratio,
      spread: r.spread,
      ci: r.ci,
      ratioMeaning: `${labels[1]} throughput / ${labels[0]} throughput`,
      samples: { wall: { raw: rounds.wall[base], client: rounds.wall[arm] } },
    };
  };
  return [
    row('getAccount.openapi-fetch', 'raw', 'openapi', ['raw fetch', 'openapi-fetch GET']),
    row('getAccount.openapi-fetch.client', 'openapi', 'client', ['openapi-fetch GET', 'client']),
  ];
}
