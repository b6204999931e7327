/**
 * `pnpm bench`: the speed goals of issue 8, measured as ratios (both arms side by side in one process,
 * each benchmark in a process of its own), printed as one table and written to `.bench/results.json`. Not a test: it exits 0 when a target is missed,
 * unless `--strict` is given (then 1). See docs/benchmarks.md.
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { CaseRequest, CaseResult } from './case.ts';
import { CASES, GROUPS, ROOT, type CaseContext, type Group } from './cases.ts';
import { environment, table, verdictOf, withinNoise, writeJson, type Row } from './report.ts';
import { PAGE } from './server.ts';

const USAGE = `Usage: pnpm bench [--strict] [--quick] [--only ${GROUPS.join(',')}] [--out FILE]
  --strict   exit 1 when a target is missed (default: report only, exit 0)
  --quick    fewer rounds: a rough look in ~45 s, not numbers to quote
  --only     run only these groups or benchmarks (comma-separated): the groups validate (1 and
             strict/lenient of 5), unions (5), http (2 and 3), gen (4), stub (6), hostile (8), live (issue 46: catch-up, push p99); a benchmark by its id, e.g.
             getAccount.stub or iterate.concurrency (the ids are in the JSON results)
  --out      where to write the JSON results (default .bench/results.json)`;

const { values: args } = parseArgs({
  options: {
    strict: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    out: { type: 'string', default: join(ROOT, '.bench', 'results.json') },
    help: { type: 'boolean', short: 'h' },
  },
});

function progress(text: string): void {
  process.stderr.write(`bench: ${text}\n`);
}

/** Runs one benchmark in a fresh child process (tsx's loader comes with the inherited execArgv). */
function runCase(id: string, context: CaseContext): Promise<Row[]> {
  const child = fork(fileURLToPath(new URL('./case.ts', import.meta.url)), ['--case'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise<Row[]>((resolve, reject) => {
    child.once('message', (m: CaseResult) => (m.ok ? resolve(m.rows) : reject(new Error(`benchmark ${id} failed: ${m.error}`))));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`benchmark ${id}: its process exited (${String(code)}) without a result`)));
    child.send({ id, context } satisfies CaseRequest);
  });
}

async function main(): Promise<number> {
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const only = new Set((args.only ?? GROUPS.join(',')).split(',').map((s) => s.trim()));
  for (const g of only) {
    if (!GROUPS.includes(g as Group) && !CASES.some((c) => c.id === g)) {
      console.error(`bench: unknown benchmark ${g}; groups: ${GROUPS.join(', ')}; benchmarks: ${CASES.map((c) => c.id).join(', ')}\n${USAGE}`);
      return 2;
    }
  }
  const missing = ['node-client', 'validators'].filter((p) => !existsSync(join(ROOT, 'packages', p, 'dist', 'index.js')));
  if (missing.length > 0) {
    console.error(`bench: ${missing.map((p) => `packages/${p}/dist`).join(', ')} missing; run \`pnpm build\` first (\`pnpm bench\` does).`);
    return 2;
  }
  const cases = CASES.filter((c) => only.has(c.group) || only.has(c.id));
  const env = environment();
  const rows: Row[] = [];
  progress(`Node ${env.node}, ${env.cpus} CPUs${args.quick ? ', quick' : ''}; each benchmark in its own process`);
  // Loaded only when needed: it imports the built packages.
  const http = cases.some((c) => c.servers) ? await import('./http.ts') : undefined;
  if (http) progress('starting the loopback servers (child process)');
  const servers = await http?.startServers();
  try {
    for (const c of cases) {
      progress(c.title);
      rows.push(...(await runCase(c.id, { root: ROOT, quick: args.quick, servers: servers?.ready })));
    }
  } finally {
    await servers?.close();
  }

  rows.sort((a, b) => a.group.localeCompare(b.group));
  console.log(`\n${table(rows, env)}\n`);
  for (const r of rows) {
    if (r.cpu) {
      const c = r.cpu;
      console.log(`cpu (${r.id}): client side ${c.raw.toFixed(1)} ${c.unit} raw, ${c.client.toFixed(1)} ${c.unit} client (x${c.ratio.toFixed(2)})`);
    }
  }
  for (const r of rows) if (r.note) console.log(`note (${r.id}): ${r.note}`);
  for (const r of rows) if (withinNoise(r)) console.log(`note (${r.id}): the target is inside the 95% CI; this run cannot tell pass from miss, run it again`);
  console.log(`Page size for 1/3: ${PAGE} transactions. Ratios: Hodges-Lehmann estimates of the per-round ratios, with their 95% CI.`);
  writeJson(args.out, env, rows);
  console.log(`Results: ${args.out}`);
  const missed = rows.filter((r) => verdictOf(r) === 'MISS');
  if (missed.length > 0) {
    console.log(`Missed targets: ${missed.map((r) => r.id).join(', ')}${args.strict ? '' : ' (exit 0; --strict makes this exit 1)'}`);
  }
  return args.strict && missed.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(2);
  },
);
