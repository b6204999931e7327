/**
 * Benchmark 7, hedged requests: the tail latency of `node.v2.getAccount` over two nodes, node A first,
 * with `hedgeAfterMs: 50` and without. Both nodes are `node:http` servers of this benchmark's own on
 * 127.0.0.1, in its process: node A answers every 10th request it receives after 500 ms and the others
 * after 5 ms (deterministic: request 10, 20, 30, ... of each sample, its counter reset per sample); node B
 * answers every request after 5 ms. A sample is {@link HEDGE}.calls sequential calls, each timed on its
 * own; its p99 is the sample's number. Without hedging every 10th call waits for A's 500 ms, so p99 is
 * about 505 ms; with it, the same call goes to B too after 50 ms and B's answer wins (A's request is
 * aborted), so p99 is about 50 + 5 ms: ideally a ratio of about 9 (target >= 5).
 *
 * Both arms run in the benchmark's process, alternating round by round (which goes first rotates), each
 * with a client of its own over the same two servers. Every call's body says which node answered, and
 * the benchmark fails if an answer is not an account, if the arm without hedging ever got one from B,
 * or if the hedged arm's answers from B are not exactly its slow requests.
 */
import { createNodeClient } from '@x/node-client';
import { median, pairedRatio, quantile } from './harness.ts';
import type { Row } from './report.ts';
import { startDelayedServer, type DelayedServer } from './delayed-server.ts';

/** The benchmark's parameters: calls per sample, A's slow answer and how often, the fast answer, the hedge delay. */
export const HEDGE = { calls: 200, slowEvery: 10, slowMs: 500, fastMs: 5, hedgeAfterMs: 50 } as const;
export const HEDGE_ACCOUNT = `0x${'4e'.repeat(32)}`;

/** A node of the row (see `startDelayedServer`). */
export type TailServer = DelayedServer;

/**
 * A node answering `GET /rpc/v2/accounts/{HEDGE_ACCOUNT}` with `{ sequence_number: id, ... }`, request
 * number n (1-based since the last reset) after `slowMs` when `slowEvery` divides n, else after `fastMs`.
 * Any other path is a 404. A request the client closes first is not answered.
 */
export async function startTailServer(o: { id: number; slowEvery?: number; slowMs?: number; fastMs: number }): Promise<TailServer> {
  const path = `/rpc/v2/accounts/${HEDGE_ACCOUNT}`;
  const body = Buffer.from(JSON.stringify({ sequence_number: o.id, authentication_key: `0x${'00'.repeat(32)}` }));
  const notFound = Buffer.from(JSON.stringify({ message: 'not found' }));
  return startDelayedServer((url, n, method) => {
    const ok = method === 'GET' && url.pathname === path && url.search === '';
    const delayMs = o.slowEvery !== undefined && n % o.slowEvery === 0 ? o.slowMs! : o.fastMs;
    return { status: ok ? 200 : 404, body: ok ? body : notFound, delayMs };
  });
}

type Arm = 'off' | 'hedged';
type Sample = { latencies: number[]; fromB: number; sentToA: number; sentToB: number };

/**
 * `rounds` samples of each arm (after one shorter warm-up sample each), and two rows: p99 without
 * hedging over p99 with it (target >= 5), and the medians (what hedging costs the other 90%, for
 * information; the note gives the extra requests).
 */
export async function benchHedging(o: { rounds: number; calls?: number }): Promise<Row[]> {
  const calls = o.calls ?? HEDGE.calls;
  const a = await startTailServer({ id: 1, slowEvery: HEDGE.slowEvery, slowMs: HEDGE.slowMs, fastMs: HEDGE.fastMs });
  const b = await startTailServer({ id: 2, fastMs: HEDGE.fastMs });
  try {
    const clients: Record<Arm, ReturnType<typeof createNodeClient>> = {
      off: createNodeClient({ baseUrl: [a.url, b.url] }),
      hedged: createNodeClient({ baseUrl: [a.url, b.url], hedgeAfterMs: HEDGE.hedgeAfterMs }),
    };
    const sample = async (arm: Arm, n: number): Promise<Sample> => {
      a.reset();
      b.reset();
      const latencies: number[] = [];
      let fromB = 0;
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        const account = await clients[arm].v2.getAccount(HEDGE_ACCOUNT);
        latencies.push(performance.now() - t0);
        if (account.sequence_number === 2) fromB++;
        else if (account.sequence_number !== 1) throw new Error(`${arm}: call ${i} answered ${JSON.stringify(account)}`);
      }
      const slow = Math.floor(n / HEDGE.slowEvery);
      if (arm === 'off' && fromB !== 0) throw new Error(`without hedging, ${fromB} answers came from node B`);
      if (arm === 'hedged' && fromB !== slow) throw new Error(`hedged: ${fromB} answers from node B, expected the ${slow} slow requests of A`);
      return { latencies, fromB, sentToA: a.received(), sentToB: b.received() };
    };
    for (const arm of ['off', 'hedged'] as const) await sample(arm, 2 * HEDGE.slowEvery); // warm-up: connections, JIT
    const samples: Record<Arm, Sample[]> = { off: [], hedged: [] };
    for (let r = 0; r < o.rounds; r++) {
      for (const arm of r % 2 === 0 ? (['off', 'hedged'] as const) : (['hedged', 'off'] as const)) samples[arm].push(await sample(arm, calls));
    }
    // The last aborted hedge's close reaches A a moment after its call resolved.
    await new Promise((r) => setTimeout(r, 100));
    const p = (arm: Arm, q: number): number[] => samples[arm].map((s) => quantile(s.latencies, q));
    const all = (arm: Arm): number[] => samples[arm].flatMap((s) => s.latencies);
    const p99 = { off: median(p('off', 0.99)), hedged: median(p('hedged', 0.99)) };
    const p50 = { off: median(p('off', 0.5)), hedged: median(p('hedged', 0.5)) };
    const pooled = { off: quantile(all('off'), 0.99), hedged: quantile(all('hedged'), 0.99) };
    const speedup = pairedRatio(p('hedged', 0.99), p('off', 0.99));
    const medians = pairedRatio(p('off', 0.5), p('hedged', 0.5));
    const sent = (arm: Arm): string => samples[arm].map((s) => `${s.sentToA} + ${s.sentToB}`).join(', ');
    const what = `${calls} sequential calls over 2 loopback nodes, A answering every ${HEDGE.slowEvery}th request after ${HEDGE.slowMs} ms and the rest after ${HEDGE.fastMs} ms, B after ${HEDGE.fastMs} ms`;
    const ms = (v: number): string => `${v.toFixed(1)} ms`;
    return [
      {
        id: 'hedge.p99',
        group: '7',
        name: `node.v2.getAccount p99, ${what}: hedgeAfterMs off vs ${HEDGE.hedgeAfterMs}`,
        a: { label: 'off', value: p99.off, unit: 'ms' },
        b: { label: `hedgeAfterMs ${HEDGE.hedgeAfterMs}`, value: p99.hedged, unit: 'ms' },
        ratio: speedup.ratio,
        spread: speedup.spread,
        ci: speedup.ci,
        ratioMeaning: `p99 without hedging / p99 with hedgeAfterMs ${HEDGE.hedgeAfterMs} (ideal about (${HEDGE.slowMs} + ${HEDGE.fastMs}) / (${HEDGE.hedgeAfterMs} + ${HEDGE.fastMs}) = ${((HEDGE.slowMs + HEDGE.fastMs) / (HEDGE.hedgeAfterMs + HEDGE.fastMs)).toFixed(1)})`,
        target: { op: '>=', value: 5 },
        note:
          `p99 per sample of ${calls} calls, median of ${o.rounds}: off ${ms(p99.off)}, hedged ${ms(p99.hedged)} (all calls pooled: ${ms(pooled.off)} vs ${ms(pooled.hedged)}); ` +
          `x${speedup.ratio.toFixed(2)} (target >= 5); the slowest hedged call ${ms(Math.max(...all('hedged')))}; ` +
          `hedges won by B per sample: ${samples.hedged.map((s) => s.fromB).join(', ')} (every slow request of A)`,
        samples: { p99: { off: p('off', 0.99), hedged: p('hedged', 0.99) }, latencies: { off: samples.off.map((s) => s.latencies), hedged: samples.hedged.map((s) => s.latencies) } },
      },
      {
        id: 'hedge.p50',
        group: '7',
        name: `node.v2.getAccount p50 (the 90% the hedge does not touch), ${what}: hedgeAfterMs off vs ${HEDGE.hedgeAfterMs}`,
        a: { label: 'off', value: p50.off, unit: 'ms' },
        b: { label: `hedgeAfterMs ${HEDGE.hedgeAfterMs}`, value: p50.hedged, unit: 'ms' },
        ratio: medians.ratio,
        spread: medians.spread,
        ci: medians.ci,
        ratioMeaning: 'hedged p50 / off p50 (information: 1.0 is no cost)',
        note:
          `requests per sample, A + B: off ${sent('off')}; hedged ${sent('hedged')} (each hedge is one more request, ${100 / HEDGE.slowEvery}% here); ` +
          `requests A saw closed before its answer (aborted hedges, warm-up included): ${a.aborted()}`,
        samples: { p50: { off: p('off', 0.5), hedged: p('hedged', 0.5) } },
      },
    ];
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}
