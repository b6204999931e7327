/**
 * Bytes allocated per `node.v2.getAccount` call, client against raw fetch, in memory (reported, no
 * target). On loopback what the client allocates per call costs more throughput than its CPU time
 * does (see docs/benchmarks.md), so this is the number to compare first when ratio 2 drops.
 *
 * Counted with V8's sampling heap profiler over the inspector, including the objects a garbage
 * collection has already freed: every allocation, not what is left alive. Both arms answer from the
 * same in-memory target, so the difference is what the client adds.
 */
import { Session } from 'node:inspector/promises';
import { STUB_ACCOUNTS } from '@x/testing';
import { median, pool } from './harness.ts';
import { clientFor, rawJson, type Target } from './http.ts';
import type { Row } from './report.ts';
import { accountPath } from './server.ts';

type SampleNode = { selfSize: number; children: SampleNode[] };

const sum = (n: SampleNode): number => n.children.reduce((total, c) => total + sum(c), n.selfSize);

/** Bytes allocated per call of `task`, run `calls` times with 16 in flight. */
async function bytesPerCall(session: Session, task: () => Promise<unknown>, calls: number): Promise<number> {
  // A sample every 512 bytes on average: over 10,000 calls of ~16 kB, ~300,000 samples, a sampling
  // error of about 0.2% (~30 B per call). Each sample takes a stack trace, so a finer one is slow.
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 512,
    // In Node 20's V8 but not yet in its protocol types.
    ...{ includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true },
  });
  await pool(calls, 16, task);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  return sum(profile.head as unknown as SampleNode) / calls;
}

export async function benchAllocations(t: Target, o: { calls: number; rounds: number }): Promise<Row> {
  const address = STUB_ACCOUNTS.busy;
  const node = clientFor(t);
  const url = t.baseUrl + accountPath(address);
  const arms = {
    raw: (): Promise<unknown> => rawJson(t, url),
    client: (): Promise<unknown> => node.v2.getAccount(address),
  };
  // Compiled first: optimised code allocates less (escape analysis), and that is the code users run.
  for (const task of Object.values(arms)) await pool(20_000, 16, task);
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  const bytes = { raw: [] as number[], client: [] as number[] };
  try {
    for (let r = 0; r < o.rounds; r++) {
      for (const k of r % 2 === 0 ? (['raw', 'client'] as const) : (['client', 'raw'] as const)) bytes[k].push(await bytesPerCall(session, arms[k], o.calls));
    }
  } finally {
    session.disconnect();
  }
  const raw = median(bytes.raw);
  const client = median(bytes.client);
  return {
    id: 'getAccount.alloc',
    group: '2',
    name: `node.v2.getAccount, bytes allocated per call, ${o.calls.toLocaleString('en')} calls x ${o.rounds} (${t.name})`,
    a: { label: 'raw fetch', value: raw, unit: 'B' },
    b: { label: 'client', value: client, unit: 'B' },
    ratio: client / raw,
    ratioMeaning: 'client bytes per call / raw fetch bytes per call',
    note: `the client allocates ${Math.round(client - raw).toLocaleString('en')} B per call more than raw fetch`,
    samples: bytes,
  };
}
