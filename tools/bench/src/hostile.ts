/**
 * Benchmark 8, a hostile node (issue 33): what its worst answers cost the process that reads them.
 *
 * - **Event-loop block**: the longest stall of this process's event loop (`monitorEventLoopDelay`, 1 ms
 *   resolution) while the node client takes each hostile answer of hostile-server.ts (a 100,000-letter
 *   error message, 100,000 digits after "try again in", an endless body, a gzip body that inflates
 *   without end, a 100,000-character cursor), against the same measure over as many ordinary calls.
 *   Before the fix, the letters alone blocked it for 8.5 s and the digits for 63 s.
 * - **Peak RSS**: the high-water mark of this process's resident memory (`resourceUsage().maxRSS`) over
 *   one call against the endless body and one against the gzip body, with the default
 *   `maxResponseBytes` (16 MiB), minus the mark before: the call should stay within a few times the
 *   limit (an endless body buffered ~6 GB within one 30 s timeout before, a gzip body 3 GB).
 *
 * The hostile node runs in a process of its own, so writing its bodies costs nothing measured here.
 */
import { fork } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createNodeClient } from '@x/node-client';
import type { Row } from './report.ts';

const KINDS = ['letters', 'digits', 'endless', 'gzip', 'big-cursor'] as const;
const LIMIT = 16 * 1024 * 1024;
const MB = 1024 * 1024;

/** Starts hostile-server.ts in a child process; resolves to its base URL and a stop function. */
async function startHostileNode(): Promise<{ url: string; stop(): void }> {
  const child = fork(fileURLToPath(new URL('./hostile-server.ts', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`the hostile node exited (${String(code)})`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/** The longest event-loop stall, in ms, while `run` runs. */
async function longestBlock(run: () => Promise<void>): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  await run();
  h.disable();
  return h.max / 1e6;
}

/** Calls `kind` on the hostile node and expects the typed error the client gives it. */
async function hostileCall(url: string, kind: (typeof KINDS)[number]): Promise<void> {
  const node = createNodeClient({ baseUrl: `${url}/${kind}`, retry: false });
  const call = kind === 'big-cursor' ? (async () => {
    for await (const _ of node.v2.modules('0x1')) void _;
  })() : node.v2.getAccount('0x1');
  const err = await call.then(() => undefined, (e: unknown) => e);
  const expected = { letters: 'HttpError', digits: 'HttpError', endless: 'ResponseTooLargeError', gzip: 'ResponseTooLargeError', 'big-cursor': 'ResponseShapeError' }[kind];
  if ((err as Error | undefined)?.name !== expected) throw new Error(`${kind}: expected ${expected}, got ${String(err)}`);
}

/**
 * The event-loop row: ordinary calls (a) against the hostile answers (b), `rounds` times each, the
 * longest block of all; the target is on the hostile value (at most 250 ms, where it was seconds).
 */
export async function benchHostileBlock(rounds: number): Promise<Row[]> {
  const node = await startHostileNode();
  try {
    const ordinary = createNodeClient({ baseUrl: `${node.url}/ok`, retry: false });
    // Warm both paths first: a first call compiles what the others reuse.
    await ordinary.v2.getAccount('0x1');
    for (const kind of KINDS) await hostileCall(node.url, kind);
    let a = 0;
    let b = 0;
    const worst: Record<string, number> = {};
    for (let r = 0; r < rounds; r++) {
      a = Math.max(a, await longestBlock(async () => {
        for (let i = 0; i < KINDS.length; i++) await ordinary.v2.getAccount('0x1');
      }));
      for (const kind of KINDS) {
        const ms = await longestBlock(() => hostileCall(node.url, kind));
        worst[kind] = Math.max(worst[kind] ?? 0, ms);
        b = Math.max(b, ms);
      }
    }
    return [{
      id: 'hostile.block',
      group: '8',
      name: 'longest event-loop block: ordinary calls vs hostile answers',
      a: { label: 'ordinary', value: a, unit: 'ms' },
      b: { label: 'hostile', value: b, unit: 'ms' },
      ratio: b / Math.max(a, 1),
      ratioMeaning: 'hostile block / ordinary block',
      // Values, not the ratio: an ordinary call blocks for about a millisecond, so the ratio is noise.
      target: { op: '<=', a: 250, b: 250, on: 'values' },
      note: `worst per answer (ms): ${KINDS.map((k) => `${k} ${worst[k]!.toFixed(1)}`).join(', ')}; ${rounds} rounds`,
    }];
  } finally {
    node.stop();
  }
}

/** The peak-RSS row of one hostile body (`endless` or `gzip`) with the default maxResponseBytes. */
export async function benchHostileRss(kind: 'endless' | 'gzip'): Promise<Row[]> {
  const node = await startHostileNode();
  try {
    // The first call loads and compiles the client: the mark before is taken after it.
    await createNodeClient({ baseUrl: `${node.url}/ok`, retry: false }).v2.getAccount('0x1');
    globalThis.gc?.();
    const before = process.resourceUsage().maxRSS * 1024;
    await hostileCall(node.url, kind);
    const peak = process.resourceUsage().maxRSS * 1024;
    return [{
      id: `hostile.rss.${kind}`,
      group: '8',
      name: `peak RSS of one call against ${kind === 'endless' ? 'an endless body' : 'a gzip body that inflates without end'} (maxResponseBytes 16 MiB)`,
      a: { label: 'before', value: before / MB, unit: 'MB' },
      b: { label: 'peak', value: peak / MB, unit: 'MB' },
      ratio: (peak - before) / LIMIT,
      ratioMeaning: 'growth / maxResponseBytes',
      target: { op: '<=', value: 5 },
      note: `growth ${((peak - before) / MB).toFixed(1)} MB for a limit of ${LIMIT / MB} MiB`,
    }];
  } finally {
    node.stop();
  }
}
