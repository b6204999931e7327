/**
 * Benchmark 3, concurrent pages: 3,000 transactions walked with `node.v2.transactions(addr, { start: 0 })`
 * page by page (`concurrency: 1`, the default) and with `concurrency: 8`, against a loopback server of
 * this benchmark's own that answers every request after 40 ms, so that the round trips, not the CPU,
 * set the time. Both walks run in the benchmark's process, interleaved round by round (harness.ts).
 *
 * How many requests, and the ideal: 3,000 transactions in pages of 100 are 30 full pages; the full page
 * at 2,900 says the walk goes on, so a page-by-page walk also asks for the page at 3,000, which is empty
 * and ends it: {@link walkRequests} = floor(3000 / 100) + 1 = 31 requests, 31 round trips. With
 * `concurrency: 8` the same 31 starts are predicted (start + k * 100), so the empty page goes out in the
 * same window as the last full pages: the walk needs ceil(31 / 8) = 4 round trips ({@link idealRoundTrips}),
 * and sends 31 + 7 = 38 requests (pages 3,100 ... 3,700 are fetched ahead, then dropped when the empty
 * page ends the walk). The ideal concurrent time is 4 x 40 ms = 160 ms. (The issue's bound,
 * (ceil(30 / 8) + 1) x 40 ms = 200 ms, counts the final page as a round trip of its own; it is never
 * lower than this one, so a walk within 1.5x of 160 ms is also within 1.5x of 200 ms.)
 *
 * The server is a `node:http` server on 127.0.0.1 in the benchmark's own process: at 40 ms per answer
 * its work (a few µs per page) is far below the noise, and it closes when the benchmark ends. Requests
 * are counted on the client side (the client's `fetch` option wraps the global fetch, counting the
 * attempts, retries included), per walk; the server counts what reached it.
 */
import { createNodeClient } from '@x/node-client';
import { measureAsync, median, pairedRatio } from './harness.ts';
import type { Row } from './report.ts';
import { startDelayedServer, type DelayedServer } from './delayed-server.ts';

/** The benchmark's parameters: transactions of the account, page size (the client's default and the maximum), delay per answer, concurrency. */
export const SLOW = { transactions: 3_000, page: 100, delayMs: 40, concurrency: 8 } as const;
export const SLOW_ACCOUNT = `0x${'c8'.repeat(32)}`;

/** Requests of a page-by-page walk of `total` items: every full page, then the short or empty page that ends the walk. */
export const walkRequests = (total: number, page: number): number => Math.floor(total / page) + 1;

/** Round trips of an ideal walk with `concurrency` pages in flight at their predicted starts: its requests, `concurrency` at a time. */
export const idealRoundTrips = (total: number, page: number, concurrency: number): number => Math.ceil(walkRequests(total, page) / concurrency);

/** The most requests a concurrent walk may send: those of the page-by-page walk, and `concurrency - 1` fetched ahead past its end. */
export const maxConcurrentRequests = (total: number, page: number, concurrency: number): number => walkRequests(total, page) + concurrency - 1;

/** The slow node of the row (see `startDelayedServer`). */
export type SlowServer = DelayedServer;

/**
 * A loopback server answering `GET /rpc/v2/accounts/{address}/transactions?start=&count=` for one
 * account of `transactions` transactions numbered 0 ... transactions - 1, each answer after `delayMs`
 * (setTimeout). A record is `{ hash, header: { sender, sequence_number } }`, all a walk reads. Any other
 * path is a 404, a bad `start` or `count` (count 1 ... 100) a 400, so a client that asked for something
 * else fails.
 */
export async function startSlowServer(o: { address: string; transactions: number; delayMs: number }): Promise<SlowServer> {
  const path = `/rpc/v2/accounts/${o.address}/transactions`;
  const bodies = new Map<string, Buffer>();
  const page = (start: number, count: number): Buffer => {
    const key = `${start},${count}`;
    let body = bodies.get(key);
    if (!body) {
      const record = [];
      for (let n = start; n < Math.min(start + count, o.transactions); n++) {
        record.push({ hash: `0x${n.toString(16).padStart(64, '0')}`, header: { sender: o.address, sequence_number: n } });
      }
      bodies.set(key, (body = Buffer.from(JSON.stringify({ record }))));
    }
    return body;
  };
  const error = (code: string, message: string): Buffer => Buffer.from(JSON.stringify({ error: code, message }));
  return startDelayedServer((url, _n, method) => {
    const start = Number(url.searchParams.get('start') ?? '0');
    const count = Number(url.searchParams.get('count') ?? '100');
    const answer = (status: number, body: Buffer) => ({ status, body, delayMs: o.delayMs });
    if (method !== 'GET' || url.pathname !== path) return answer(404, error('not_found', `no ${method} ${url.pathname}`));
    if (!Number.isSafeInteger(start) || start < 0 || !Number.isInteger(count) || count < 1 || count > 100) {
      return answer(400, error('bad_request', `start ${String(start)}, count ${String(count)}`));
    }
    return answer(200, page(start, count));
  });
}

type Walks = { sequential: number[]; concurrent: number[] };

/**
 * Walks the slow server's account with `concurrency: 1` and with `concurrency: SLOW.concurrency`,
 * `rounds` timed rounds each (after one untimed round), and returns three rows: the speed-up (target
 * >= 5), the concurrent time against the ideal (target <= 1.5), and the requests each walk sent (the
 * concurrent walk at most `concurrency - 1` more than the page-by-page one). Every walk must yield the
 * 3,000 transactions in order, or the benchmark fails.
 */
export async function benchConcurrentWalk(o: { rounds: number }): Promise<Row[]> {
  const { transactions, page, delayMs, concurrency } = SLOW;
  const server = await startSlowServer({ address: SLOW_ACCOUNT, transactions, delayMs });
  try {
    let sent = 0;
    const node = createNodeClient({
      baseUrl: server.url,
      fetch: (request) => {
        sent++;
        return fetch(request);
      },
    });
    const requests: Walks = { sequential: [], concurrent: [] };
    const walkWith = (arm: keyof Walks, c: number) => async (): Promise<number> => {
      const before = sent;
      let n = 0;
      for await (const tx of node.v2.transactions(SLOW_ACCOUNT, { start: 0, concurrency: c })) {
        if (Number(tx.header.sequence_number) !== n) throw new Error(`${arm} walk: item ${n} has sequence number ${String(tx.header.sequence_number)}`);
        n++;
      }
      if (n !== transactions) throw new Error(`${arm} walk: ${n} transactions, expected ${transactions}`);
      requests[arm].push(sent - before);
      return n;
    };
    const rounds = await measureAsync({ sequential: walkWith('sequential', 1), concurrent: walkWith('concurrent', concurrency) }, { rounds: o.rounds, warmupRounds: 1 });
    const seqMs = median(rounds.wall.sequential);
    const conMs = median(rounds.wall.concurrent);
    const seqTrips = walkRequests(transactions, page);
    const conTrips = idealRoundTrips(transactions, page, concurrency);
    const idealMs = conTrips * delayMs;
    const issueIdealMs = (Math.ceil(Math.floor(transactions / page) / concurrency) + 1) * delayMs;
    const speedup = pairedRatio(rounds.wall.concurrent, rounds.wall.sequential);
    const toIdeal = pairedRatio(rounds.wall.concurrent.map(() => idealMs), rounds.wall.concurrent);
    const seqRequests = Math.max(...requests.sequential);
    const conRequests = Math.max(...requests.concurrent);
    const what = `${transactions.toLocaleString('en')} txs, pages of ${page}, ${delayMs} ms per answer (loopback)`;
    const samples = { ...rounds, requests, serverReceived: server.received() };
    const rtt = (ms: number): string => `${(ms / delayMs).toFixed(2)} round trips of ${delayMs} ms`;
    return [
      {
        id: 'iterate.concurrency',
        group: '3',
        name: `node.v2.transactions, ${what}: concurrency 1 vs ${concurrency}`,
        a: { label: 'concurrency 1', value: seqMs, unit: 'ms' },
        b: { label: `concurrency ${concurrency}`, value: conMs, unit: 'ms' },
        ratio: speedup.ratio,
        spread: speedup.spread,
        ci: speedup.ci,
        ratioMeaning: `speed-up: concurrency 1 time / concurrency ${concurrency} time (ideal ${seqTrips} / ${conTrips} = ${(seqTrips / conTrips).toFixed(2)})`,
        target: { op: '>=', value: 5 },
        note:
          `median of ${o.rounds} walks each: concurrency 1 ${seqMs.toFixed(0)} ms (${rtt(seqMs)}; ideal ${seqTrips} x ${delayMs} = ${seqTrips * delayMs} ms), ` +
          `concurrency ${concurrency} ${conMs.toFixed(0)} ms (${rtt(conMs)}; ideal ${conTrips}); speed-up x${speedup.ratio.toFixed(2)} (target >= 5)`,
        samples,
      },
      {
        id: 'iterate.concurrency.ideal',
        group: '3',
        name: `node.v2.transactions, ${what}: concurrency ${concurrency} vs its ideal, ceil(${seqTrips} requests / ${concurrency}) = ${conTrips} round trips`,
        a: { label: 'ideal', value: idealMs, unit: 'ms' },
        b: { label: `concurrency ${concurrency}`, value: conMs, unit: 'ms' },
        ratio: toIdeal.ratio,
        spread: toIdeal.spread,
        ci: toIdeal.ci,
        ratioMeaning: `concurrency ${concurrency} time / ideal time (1.0 is the ideal)`,
        target: { op: '<=', value: 1.5 },
        note:
          `ideal = ceil((floor(${transactions} / ${page}) + 1) / ${concurrency}) x ${delayMs} ms = ${conTrips} x ${delayMs} = ${idealMs} ms: ` +
          `the ${seqTrips} pages a walk needs (${seqTrips - 1} full, then the empty one that ends it), ${concurrency} at a time; ` +
          `x${(conMs / idealMs).toFixed(2)} of it (target <= 1.5), x${(conMs / issueIdealMs).toFixed(2)} of the issue's looser (ceil(${seqTrips - 1} / ${concurrency}) + 1) x ${delayMs} = ${issueIdealMs} ms`,
        samples: { wall: rounds.wall.concurrent, idealMs, issueIdealMs },
      },
      {
        id: 'iterate.concurrency.requests',
        group: '3',
        name: `node.v2.transactions, ${what}: requests per walk (most of any walk), concurrency 1 vs ${concurrency}`,
        a: { label: 'concurrency 1', value: seqRequests, unit: 'requests' },
        b: { label: `concurrency ${concurrency}`, value: conRequests, unit: 'requests' },
        ratio: conRequests / seqRequests,
        ratioMeaning: `concurrency ${concurrency} requests / concurrency 1 requests (information; the targets are the two counts)`,
        target: { op: '<=', a: seqTrips, b: seqRequests + concurrency - 1, on: 'values' },
        note:
          `requests sent per walk (client side, every attempt): concurrency 1 ${requests.sequential.join(', ')} (expected ${seqTrips}); ` +
          `concurrency ${concurrency} ${requests.concurrent.join(', ')} (at most ${seqRequests} + ${concurrency - 1} = ${seqRequests + concurrency - 1}: pages fetched ahead past the end, dropped); ` +
          `the server received ${server.received()} of the ${sent} sent (a page dropped early may never reach it)`,
        samples: { requests, sent, serverReceived: server.received() },
      },
    ];
  } finally {
    await server.close();
  }
}
