/**
 * Benchmark 6 (issue 20): how long `startNodeStub` takes, from the call to a listening server, in this
 * benchmark's own fresh process. The first call is cold (JIT and the chain of its seed built from
 * nothing); each later call uses a new seed, so every call builds a chain (none comes from the cache).
 */
import { median } from './harness.ts';
import type { Row } from './report.ts';

export async function benchStubStart(calls: number): Promise<Row> {
  const t0 = performance.now();
  const { startNodeStub } = await import('@x/testing');
  const importMs = performance.now() - t0;
  const times: number[] = [];
  for (let seed = 1; seed <= calls; seed++) {
    const start = performance.now();
    const stub = await startNodeStub({ seed: 1_000 + seed });
    times.push(performance.now() - start);
    await stub.close();
  }
  const [first, ...rest] = times as [number, ...number[]];
  return {
    id: 'stub.start',
    group: '6',
    name: `startNodeStub: the first call in a fresh process, then ${rest.length} calls with new seeds (median)`,
    a: { label: 'first', value: first, unit: 'ms' },
    b: { label: 'new seed', value: median(rest), unit: 'ms' },
    ratio: median(rest) / first,
    ratioMeaning: 'new seed / first (information; the targets are the two times)',
    target: { op: '<=', a: 50, b: 50, on: 'values' },
    note: `importing @x/testing took ${importMs.toFixed(1)} ms (not part of the start); every call builds its seed's chain and listens on 127.0.0.1`,
    samples: { ms: times },
  };
}
