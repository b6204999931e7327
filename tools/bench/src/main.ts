/**
 * `pnpm bench`: the speed goals of issue 8, measured as ratios side by side in one process run, printed
 * as one table and written to `.bench/results.json`. Not a test: it exits 0 when a target is missed,
 * unless `--strict` is given (then 1). See the README's "Benchmarks" section.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { environment, table, verdictOf, writeJson, type Row } from './report.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const GROUPS = ['validate', 'unions', 'http', 'gen'] as const;
type Group = (typeof GROUPS)[number];

const USAGE = `Usage: pnpm bench [--strict] [--quick] [--only ${GROUPS.join(',')}] [--out FILE]
  --strict   exit 1 when a target is missed (default: report only, exit 0)
  --quick    fewer rounds: a rough look in ~30 s, not numbers to quote
  --only     run only these groups (comma-separated): validate (1 and strict/lenient of 5),
             unions (5), http (2 and 3), gen (4)
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

async function main(): Promise<number> {
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const only = new Set((args.only ?? GROUPS.join(',')).split(',').map((s) => s.trim()));
  for (const g of only) if (!GROUPS.includes(g as Group)) throw new Error(`unknown group ${g}; known: ${GROUPS.join(', ')}\n${USAGE}`);
  const missing = ['node-client', 'validators'].filter((p) => !existsSync(join(ROOT, 'packages', p, 'dist', 'index.js')));
  if (missing.length > 0) {
    console.error(`bench: ${missing.map((p) => `packages/${p}/dist`).join(', ')} missing; run \`pnpm build\` first (\`pnpm bench\` does).`);
    return 2;
  }
  // Loaded after the check above: they import the built packages.
  const [{ benchValidatePage }, { benchUnions, unionValues }, http, { benchGen }] = await Promise.all([
    import('./validate.ts'),
    import('./unions.ts'),
    import('./http.ts'),
    import('./gen.ts'),
  ]);
  const { STUB_ACCOUNTS } = await import('@x-tools/stub-servers');
  const { PAGE, accountPath, txPagePath } = await import('./server.ts');

  const q = args.quick;
  const env = environment();
  const rows: Row[] = [];
  const needServers = only.has('validate') || only.has('unions') || only.has('http');
  progress(`Node ${env.node}, ${env.cpus} CPUs${q ? ', quick' : ''}`);
  if (needServers) {
    progress('starting the loopback servers (child process)');
    const servers = await http.startServers();
    try {
      if (only.has('validate')) {
        progress('1: validating a v2 page vs JSON.parse');
        const res = await fetch(servers.stubUrl + txPagePath(STUB_ACCOUNTS.busy, 0));
        if (!res.ok) throw new Error(`the stub answered ${res.status} for the page`);
        rows.push(...benchValidatePage(await res.text(), q ? 9 : 31));
      }
      if (only.has('unions')) {
        progress('5: union encodings, keyed vs oneOf');
        rows.push(...benchUnions(await unionValues(servers.stubUrl), q ? 7 : 21));
      }
      if (only.has('http')) {
        const o = { requests: 400, concurrency: 16, rounds: q ? 5 : 25, repeats: 1 };
        const it = { ...o, rounds: q ? 3 : 9 };
        const memory = await http.inMemory(servers.fastUrl, [
          accountPath(STUB_ACCOUNTS.busy),
          ...Array.from({ length: servers.syntheticCount / PAGE + 1 }, (_, i) => txPagePath(servers.synthetic, i * PAGE)),
        ]);
        for (const t of [http.loopback('pre-rendered', servers.fastUrl), http.loopback('stub', servers.stubUrl), memory]) {
          progress(`2: getAccount, client vs raw fetch (${t.name})`);
          // In memory a call takes ~0.1 ms: larger samples, so that each lasts about as long as on loopback.
          rows.push(await http.benchGetAccount(t, t.info ? { ...o, requests: 2000, rounds: q ? 5 : 11 } : o));
        }
        for (const t of [http.loopback('pre-rendered', servers.fastUrl), memory]) {
          progress(`3: iterating 10,000 transactions, client vs raw pages (${t.name})`);
          rows.push(await http.benchIterate(t, servers.synthetic, servers.syntheticCount, it));
        }
        progress('3: iterating the busy account 4 times, client vs raw pages (stub)');
        rows.push(await http.benchIterate(http.loopback('stub', servers.stubUrl), STUB_ACCOUNTS.busy, 2500, { ...it, rounds: q ? 3 : 5, repeats: 4 }));
      }
    } finally {
      await servers.close();
    }
  }
  if (only.has('gen')) {
    progress('4: pnpm gen, cold and with nothing changed (a copy of the tree in the temp dir)');
    rows.push(await benchGen(ROOT, q ? 1 : 2, q ? 2 : 3));
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
  console.log(`Page size for 1/3: ${PAGE} transactions. Ratios are medians of per-round ratios; IQR = their 25th-75th percentile.`);
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
