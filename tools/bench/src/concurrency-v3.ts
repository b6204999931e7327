/**
 * Benchmark 3 for v3: 3,000 transactions walked with `node.v3.transactions(addr, ...)` page by page and
 * with `concurrency: 8`, ascending from 0 and newest first, against a loopback server of this benchmark's
 * own that answers `GET /rpc/v3/accounts/{address}/transactions?start=&count=&ascending=` as the node's
 * served document says (a bare array; `start` inclusive; ascending when `ascending=true`, else descending
 * from `start` or from the newest) after 40 ms, so that round trips, not the CPU, set the time. Ascending
 * walks predict page starts (start + k * count); newest-first walks read the newest page, then windows
 * below it ascending, `concurrency` at a time. Each row's target: a speed-up of at least 5.
 */
import { createNodeClient } from '@x/node-client';
import { measureAsync, median, pairedRatio } from './harness.ts';
import type { Row } from './report.ts';
import { startDelayedServer } from './delayed-server.ts';
import { SLOW, SLOW_ACCOUNT } from './concurrency.ts';

function startV3Server(o: { address: string; transactions: number; delayMs: number }) {
  const path = `/rpc/v3/accounts/${o.address}/transactions`;
  const record = (n: number) => ({ txn_type: 'user', hash: `0x${n.toString(16).padStart(64, '0')}`, header: { sender: o.address, sequence_number: n } });
  return startDelayedServer((url, _n, method) => {
    const count = Number(url.searchParams.get('count') ?? '20');
    const asc = url.searchParams.get('ascending') === 'true';
    const start = url.searchParams.has('start') ? Number(url.searchParams.get('start')) : asc ? 0 : o.transactions - 1;
    if (method !== 'GET' || url.pathname !== path || !Number.isSafeInteger(start) || start < 0 || !Number.isInteger(count) || count < 1 || count > 100) {
      return { status: 400, body: Buffer.from(JSON.stringify({ message: `no ${method} ${url.pathname}${url.search}` })), delayMs: o.delayMs };
    }
    const items = [];
    if (asc) for (let n = start; n < Math.min(start + count, o.transactions); n++) items.push(record(n));
    else for (let n = Math.min(start, o.transactions - 1); n > start - count && n >= 0; n--) items.push(record(n));
    return { status: 200, body: Buffer.from(JSON.stringify(items)), delayMs: o.delayMs };
  });
}

/** Two rows: the speed-up of a concurrent v3 walk over a page-by-page one, ascending and newest first. */
export async function benchConcurrentWalkV3(o: { rounds: number }): Promise<Row[]> {
  const { transactions, page, delayMs, concurrency } = SLOW;
  const server = await startV3Server({ address: SLOW_ACCOUNT, transactions, delayMs });
  try {
    const node = createNodeClient({ baseUrl: server.url });
    const rows: Row[] = [];
    for (const order of ['asc', 'desc'] as const) {
      const walkWith = (c: number) => async (): Promise<number> => {
        let n = 0;
        for await (const tx of node.v3.transactions(SLOW_ACCOUNT, { order, pageSize: page, concurrency: c })) {
          const want = order === 'asc' ? n : transactions - 1 - n;
          const seq = tx.txn_type === 'user' || tx.txn_type === 'automated' ? Number(tx.header.sequence_number) : NaN;
          if (seq !== want) throw new Error(`v3 ${order} walk: item ${n} has sequence number ${seq}, expected ${want}`);
          n++;
        }
        if (n !== transactions) throw new Error(`v3 ${order} walk: ${n} transactions, expected ${transactions}`);
        return n;
      };
      const rounds = await measureAsync({ sequential: walkWith(1), concurrent: walkWith(concurrency) }, { rounds: o.rounds, warmupRounds: 1 });
      const speedup = pairedRatio(rounds.wall.concurrent, rounds.wall.sequential);
      const seqMs = median(rounds.wall.sequential);
      const conMs = median(rounds.wall.concurrent);
      rows.push({
        id: `iterate.v3.${order}`,
        group: '3',
        name: `node.v3.transactions ${order === 'asc' ? 'ascending' : 'newest first'}, ${transactions.toLocaleString('en')} txs, pages of ${page}, ${delayMs} ms per answer: concurrency 1 vs ${concurrency}`,
        a: { label: 'concurrency 1', value: seqMs, unit: 'ms' },
        b: { label: `concurrency ${concurrency}`, value: conMs, unit: 'ms' },
        ratio: speedup.ratio,
        spread: speedup.spread,
        ci: speedup.ci,
        ratioMeaning: `speed-up: concurrency 1 time / concurrency ${concurrency} time`,
        target: { op: '>=', value: 5 },
        note: `median of ${o.rounds} walks each: concurrency 1 ${seqMs.toFixed(0)} ms, concurrency ${concurrency} ${conMs.toFixed(0)} ms; speed-up x${speedup.ratio.toFixed(2)} (target >= 5)`,
        samples: rounds,
      });
    }
    return rows;
  } finally {
    await server.close();
  }
}
